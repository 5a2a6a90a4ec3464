import type { Request } from 'express';
import { RequestError } from '../errors/RequestError.js';
import { readIdempotencyKey } from '../pipeline/readIdempotencyKey.js';

/**
 * Chat completions keep nothing to replay (no stored answer, no event log), so a request with an
 * `Idempotency-Key` is a 400 naming the header rather than a second run its client did not expect.
 */
export function refuseIdempotencyKey(req: Request): void {
  if (readIdempotencyKey(req) === undefined) return;
  throw new RequestError(
    400,
    'Idempotency-Key is not supported on /v1/chat/completions, which keeps nothing to replay; use POST /v1/responses (stored) or POST /v1/runs',
    'invalid_request_error',
    'Idempotency-Key',
    'unsupported_idempotency_key',
  );
}
