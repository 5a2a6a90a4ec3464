import { NEVER, Subject } from 'rxjs';
import { CapacityError } from '../errors/CapacityError.js';
import type { Coordinator, ReceivedInput, RunInput, SteerReceipt } from './Coordinator.js';

/** The coordinator of one process: the cap counts its own runs, a stop request or an input is a call, nobody else can die. */
export class LocalCoordinator implements Coordinator {
  readonly #owned = new Set<string>();
  readonly #stops = new Subject<string>();
  readonly stops$ = this.#stops.asObservable();
  readonly #inputs = new Subject<ReceivedInput>();
  readonly inputs$ = this.#inputs.asObservable();
  readonly sweeps$ = NEVER;
  readonly takenOver$ = NEVER;
  readonly stopWithinMs = 0;

  constructor(private readonly maxConcurrent: number) {}

  async acquire(id: string): Promise<void> {
    if (this.#owned.size >= this.maxConcurrent) throw new CapacityError(this.#owned.size, this.maxConcurrent);
    this.#owned.add(id);
  }

  async release(id: string): Promise<void> {
    this.#owned.delete(id);
  }

  async requestStop(id: string): Promise<void> {
    if (this.#owned.has(id)) this.#stops.next(id);
  }

  async sendInput(id: string, input: RunInput): Promise<void> {
    if (this.#owned.has(id)) this.#inputs.next({ id, input, acknowledge: () => undefined });
  }

  /**
   * The route steers a run live in this process itself, so a steer sent here is for a run that runs
   * nowhere, and is refused. (Handing it to `inputs$` would give the same answer, or, with a wait of
   * `stopWithinMs` = 0, `sent` for a steer the run refused.)
   */
  async sendSteer(): Promise<SteerReceipt> {
    return 'refused';
  }

  async stopRequested(): Promise<boolean> {
    return false;
  }

  async close(): Promise<void> {
    this.#stops.complete();
    this.#inputs.complete();
  }
}
