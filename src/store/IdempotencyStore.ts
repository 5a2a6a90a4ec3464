/** What an `Idempotency-Key` was first used for: the request's fingerprint, and what it was answered (or will be) with. */
export interface IdempotencyRecord {
  readonly fingerprint: string;
  /** What the first request chose when it claimed the key (the id of the run it starts), so that every duplicate answers the same. */
  readonly answer: string;
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
  claim(owner: string, key: string, record: IdempotencyRecord, ttlMs: number): Promise<IdempotencyRecord & { readonly first: boolean }>;
}
