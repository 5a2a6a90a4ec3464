import type { Request } from 'express';
import { fingerprintOf, idempotencyKeyMismatch, readIdempotencyKey } from '../pipeline/readIdempotencyKey.js';
import type { RunsContext } from './runsContext.js';
import { newRunId } from './startRun.js';

/**
 * The id of the run a `POST /v1/runs` stands for: a new one; with an `Idempotency-Key` of `owner`,
 * the one the first request with that key claimed (`replayed` when that was another request). Of
 * any number of duplicates at once, one claims; a different request under the key is 422.
 */
export async function claimRunId(req: Request, context: RunsContext, owner: string): Promise<{ id: string; replayed: boolean }> {
  const key = readIdempotencyKey(req);
  const id = newRunId();
  if (key === undefined) return { id, replayed: false };
  const fingerprint = fingerprintOf(req);
  const standing = await context.store.idempotency.claim(owner, key, { fingerprint, answer: id }, context.idempotencyTtlMs);
  if (standing.fingerprint !== fingerprint) throw idempotencyKeyMismatch();
  return { id: standing.answer, replayed: !standing.first };
}
