/**
 * The answers under an `Idempotency-Key` being made on this instance, by the log each goes to: a
 * duplicate request here that follows one learns of its end from here, even when the store could
 * not take its last event.
 */
export class AnswersInFlight {
  readonly #ends = new Map<string, Promise<void>>();
  #lastPass = Number.NEGATIVE_INFINITY;

  constructor(
    /** The least time between two retention passes that answers made here ask for. Default a minute. */
    private readonly retentionEveryMs = 60_000,
  ) {}

  /** Registers log `id` as being answered here; returns what to call once the answer is over (its log complete, or never to be). */
  begin(id: string): () => void {
    let resolve!: () => void;
    this.#ends.set(id, new Promise<void>((settle) => (resolve = settle)));
    return () => {
      this.#ends.delete(id);
      resolve();
    };
  }

  /**
   * Whether an answer that just ended should run a retention pass (its record and log expire, and
   * chat completions may be all this server answers): at most once every `retentionEveryMs`, for
   * a pass reads every table.
   */
  retentionDue(now = performance.now()): boolean {
    if (now - this.#lastPass < this.retentionEveryMs) return false;
    this.#lastPass = now;
    return true;
  }

  /** Resolves once the answer to log `id` is over, if it is being made here. */
  ended(id: string): Promise<void> | undefined {
    return this.#ends.get(id);
  }
}
