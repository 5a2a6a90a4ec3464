import type { Request } from 'express';
import type { IdempotencyStore } from '../store/IdempotencyStore.js';
import { fingerprintOf, idempotencyKeyMismatch, readIdempotencyKey } from './readIdempotencyKey.js';

/** Where a request's `Idempotency-Key` is claimed: the owner's records and how long one is kept. */
export interface IdempotencyClaim {
  readonly idempotency: IdempotencyStore;
  /** The key owner (a principal id): records are per owner. */
  readonly owner: string;
  readonly ttlMs: number;
  /** The record stands for a request in flight until it is settled or released (`ClaimOptions.pending`). Default: it stands as claimed. */
  readonly pending?: boolean;
}

/**
 * The id a request stands for: `id` (what it would create); with an `Idempotency-Key`, the id the
 * first request under that key claimed (`replayed` when that was another request). Of any number
 * of duplicates at once, one claims; a different request under the key is 422.
 */
export async function claimIdempotencyKey(
  req: Request,
  id: string,
  claim: IdempotencyClaim,
): Promise<{ id: string; replayed: boolean; pending: boolean }> {
  const key = readIdempotencyKey(req);
  if (key === undefined) return { id, replayed: false, pending: false };
  const fingerprint = fingerprintOf(req);
  const standing = await claim.idempotency.claim(claim.owner, key, { fingerprint, answer: id }, claim.ttlMs, { pending: claim.pending });
  if (standing.fingerprint !== fingerprint) throw idempotencyKeyMismatch();
  return { id: standing.answer, replayed: !standing.first, pending: standing.pending };
}
