import { Subject, type Observable } from 'rxjs';
import type { Cancellation } from '../agent/cancellation.js';
import type { InterruptReason } from '../agent/interruptReason.js';

/** A run some response is serving; `stop$` ends its pipeline the way a client leaving would. */
export interface ActiveRun {
  readonly stop$: Observable<void>;
  readonly finished: Promise<void>;
}

interface Entry {
  readonly cancellation: Cancellation;
  readonly stop$: Subject<void>;
  readonly finished: Promise<void>;
}

/** The runs in flight, so that shutdown (and stop requests) can interrupt them with a reason. */
export class ActiveRuns {
  readonly #entries = new Set<Entry>();

  get size(): number {
    return this.#entries.size;
  }

  /** Registers a run; call the returned `finish` when its response ended, however it ended. */
  add(cancellation: Cancellation): ActiveRun & { finish: () => void } {
    const stop$ = new Subject<void>();
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const entry: Entry = { cancellation, stop$, finished };
    this.#entries.add(entry);
    return {
      stop$: stop$.asObservable(),
      finished,
      finish: () => {
        this.#entries.delete(entry);
        stop$.complete();
        finish();
      },
    };
  }

  /** Resolves when every run registered now has finished. */
  async settled(): Promise<void> {
    await Promise.all([...this.#entries].map((entry) => entry.finished));
  }

  /** Interrupts every run in flight with `reason`, and resolves once they all ended. */
  async stopAll(reason: InterruptReason): Promise<void> {
    const entries = [...this.#entries];
    for (const entry of entries) {
      entry.cancellation.cancelWith(reason);
      entry.stop$.next();
    }
    await Promise.all(entries.map((entry) => entry.finished));
  }
}
