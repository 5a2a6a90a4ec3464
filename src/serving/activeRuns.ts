import { Observable, type Subscriber } from 'rxjs';
import type { Cancellation } from '../agent/cancellation.js';
import type { InterruptReason } from '../agent/interruptReason.js';

/** A run some response is serving; `stop$` ends its pipeline the way a client leaving would. */
export interface ActiveRun {
  readonly stop$: Observable<void>;
  /** Unregisters it: call it when its response ended, however it ended. Only the first call does anything. */
  finish(): void;
}

/**
 * One registered run. Every open stream holds one, so it is a few fields, not a subject and a
 * promise: a promise of its end is made only when someone waits for it (`settled`, `stopAll`).
 */
class Entry implements ActiveRun {
  readonly stop$: Observable<void>;
  // Copied on each change with `concat`: a pushed or spread array keeps room for 17.
  #stoppers: readonly Subscriber<void>[] = [];
  #waiters: readonly (() => void)[] = [];
  #finished = false;
  readonly #entries: Set<Entry>;

  constructor(
    readonly cancellation: Cancellation,
    entries: Set<Entry>,
  ) {
    this.#entries = entries;
    this.stop$ = new Observable<void>((subscriber) => {
      if (this.#finished) {
        subscriber.complete();
        return;
      }
      this.#stoppers = this.#stoppers.concat([subscriber]);
      return () => (this.#stoppers = this.#stoppers.filter((stopper) => stopper !== subscriber));
    });
  }

  stop(): void {
    for (const stopper of this.#stoppers) stopper.next();
  }

  finished(): Promise<void> {
    if (this.#finished) return Promise.resolve();
    return new Promise((resolve) => (this.#waiters = this.#waiters.concat([resolve])));
  }

  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#entries.delete(this);
    for (const stopper of this.#stoppers) stopper.complete();
    for (const resolve of this.#waiters) resolve();
  }
}

/** The runs in flight, so that shutdown (and stop requests) can interrupt them with a reason. */
export class ActiveRuns {
  readonly #entries = new Set<Entry>();

  get size(): number {
    return this.#entries.size;
  }

  /** Registers a run; call the returned `finish` when its response ended, however it ended. */
  add(cancellation: Cancellation): ActiveRun {
    const entry = new Entry(cancellation, this.#entries);
    this.#entries.add(entry);
    return entry;
  }

  /** Resolves when every run registered now has finished. */
  async settled(): Promise<void> {
    await Promise.all([...this.#entries].map((entry) => entry.finished()));
  }

  /** Interrupts every run in flight with `reason`, and resolves once they all ended. */
  async stopAll(reason: InterruptReason): Promise<void> {
    const entries = [...this.#entries];
    // Waited for before they are told: a run may end at once.
    const finished = entries.map((entry) => entry.finished());
    for (const entry of entries) {
      entry.cancellation.cancelWith(reason);
      entry.stop();
    }
    await Promise.all(finished);
  }
}
