import { RequestError } from '../errors/RequestError.js';

/** The connections following each run's events, capped per run (`RXGATE_MAX_FOLLOWERS_PER_RUN`). */
export class Followers {
  readonly #counts = new Map<string, number>();

  constructor(private readonly maxPerRun: number) {}

  /** Counts one more follower of `id`, or refuses it with 429 `too_many_followers`; returns its leaving, which counts once. */
  enter(id: string): () => void {
    const count = this.#counts.get(id) ?? 0;
    if (count >= this.maxPerRun) {
      throw new RequestError(
        429,
        `'${id}' already has ${count} connections following its events, the most RXGATE_MAX_FOLLOWERS_PER_RUN allows; retry when one has left`,
        'rate_limit_error',
        null,
        'too_many_followers',
      );
    }
    this.#counts.set(id, count + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const remaining = this.#counts.get(id)! - 1;
      if (remaining === 0) this.#counts.delete(id);
      else this.#counts.set(id, remaining);
    };
  }
}
