/**
 * The answers under an `Idempotency-Key` being made on this instance, by the log each goes to: a
 * duplicate request here that follows one learns of its end from here, even when the store could
 * not take its last event.
 */
export class AnswersInFlight {
  readonly #ends = new Map<string, Promise<void>>();

  /** Registers log `id` as being answered here; returns what to call once the answer is over (its log complete, or never to be). */
  begin(id: string): () => void {
    let resolve!: () => void;
    this.#ends.set(id, new Promise<void>((settle) => (resolve = settle)));
    return () => {
      this.#ends.delete(id);
      resolve();
    };
  }

  /** Resolves once the answer to log `id` is over, if it is being made here. */
  ended(id: string): Promise<void> | undefined {
    return this.#ends.get(id);
  }
}
