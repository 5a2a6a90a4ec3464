import { tap, type Subscription } from 'rxjs';
import { detectOverload } from './detectOverload.js';
import { eventLoopDelays } from './eventLoopDelays.js';

export interface OverloadOptions {
  /** Event-loop delay, in ms, past which new requests are shed. 0: never. */
  readonly maxDelayMs: number;
  /** How often the delay is sampled, in ms. Default: 20. */
  readonly periodMs?: number;
  /** How long the delay must stay at or under `maxDelayMs` before requests are taken again, in ms. Default: 1000. */
  readonly holdMs?: number;
}

/**
 * Whether this process is too busy to take new work: its event loop lags past `maxDelayMs`
 * (`RXGATE_MAX_EVENT_LOOP_DELAY_MS`). The work already taken goes on; what is new is shed.
 */
export class Overload {
  readonly maxDelayMs: number;
  readonly #periodMs: number;
  readonly #holdMs: number;
  #overloaded = false;
  #delayMs = 0;
  #sampledAt = performance.now();
  #sampling: Subscription | undefined;

  constructor({ maxDelayMs, periodMs = 20, holdMs = 1000 }: OverloadOptions) {
    this.maxDelayMs = maxDelayMs;
    this.#periodMs = periodMs;
    this.#holdMs = holdMs;
  }

  /** Starts sampling (a no-op with `maxDelayMs` 0, or when already started). */
  start(): this {
    if (this.maxDelayMs === 0 || this.#sampling) return this;
    this.#sampledAt = performance.now();
    this.#sampling = eventLoopDelays(this.#periodMs)
      .pipe(
        tap((delayMs) => {
          this.#delayMs = delayMs;
          this.#sampledAt = performance.now();
        }),
        detectOverload(this.maxDelayMs, this.#holdMs),
      )
      .subscribe((overloaded) => (this.#overloaded = overloaded));
    return this;
  }

  stop(): void {
    this.#sampling?.unsubscribe();
    this.#sampling = undefined;
    this.#overloaded = false;
  }

  /**
   * The loop's delay now, in ms: the last sample's, or more while the sampler is overdue. A burst
   * of work in one turn of the loop (hundreds of requests arriving at once) keeps the sampler
   * from firing until it ends: only what it has been owed since tells that the turn is long.
   */
  get delayMs(): number {
    if (!this.#sampling) return 0;
    return Math.max(this.#delayMs, performance.now() - this.#sampledAt - this.#periodMs);
  }

  get overloaded(): boolean {
    return this.#overloaded || this.delayMs > this.maxDelayMs;
  }

  /** What `Retry-After` says to a shed request, in whole seconds. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.#holdMs / 1000));
  }
}
