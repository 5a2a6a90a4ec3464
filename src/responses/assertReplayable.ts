import { RequestError } from '../errors/RequestError.js';
import type { ResponseRequest } from './responseRequest.js';

/**
 * An `Idempotency-Key` replays what was kept of the first response: the stored object, and for a
 * stream its event log. A response with `store: false` keeps neither, so such a request with the
 * header is a 400 naming it, not a silent second run.
 */
export function assertReplayable(request: ResponseRequest): void {
  if (request.store) return;
  throw new RequestError(
    400,
    'Idempotency-Key cannot be used here: a response with store: false keeps nothing to replay',
    'invalid_request_error',
    'Idempotency-Key',
    'unsupported_idempotency_key',
  );
}
