/** What an `Idempotency-Key` was first used for: the request's fingerprint, and what it was answered (or will be) with. */
export interface IdempotencyRecord {
  readonly fingerprint: string;
  /** What the first request chose when it claimed the key (the id of the run it starts, the log its answer goes to), so that every duplicate answers the same. */
  readonly answer: string;
}

/** The record that stands under a key after a claim. */
export interface StandingRecord extends IdempotencyRecord {
  /** Whether this claim made it. */
  readonly first: boolean;
  /** Whether its first request is still answering (claimed `pending`, not settled yet), on an instance that is alive. */
  readonly pending: boolean;
}

export interface ClaimOptions {
  /**
   * The first request answers after the claim (a chat completion): the record stands for a request
   * in flight until `settle` or `release`. A pending record whose instance died is no record: the
   * next claim takes the key. Default: the record stands as it is claimed (a run's id).
   */
  readonly pending?: boolean;
}

/**
 * `Idempotency-Key` records, per owner (a principal id), each kept `ttlMs` from its first use,
 * durable and shared like the rest of the store.
 */
export interface IdempotencyStore {
  /**
   * Records `record` under `owner`'s `key` unless a live record is there; returns the record that
   * stands, this one when it was first. Of any number of concurrent claims, exactly one is first.
   */
  claim(owner: string, key: string, record: IdempotencyRecord, ttlMs: number, options?: ClaimOptions): Promise<StandingRecord>;
  /** The pending first request for `answer` has answered: its record stands for the rest of its time. */
  settle(owner: string, key: string, answer: string): Promise<void>;
  /** The pending first request for `answer` gives the key up without an answer (its client left): the next claim is first. */
  release(owner: string, key: string, answer: string): Promise<void>;
  /** Whether the record for `answer` still stands under the key: settled, or pending on an instance that is alive. */
  stands(owner: string, key: string, answer: string): Promise<boolean>;
}
