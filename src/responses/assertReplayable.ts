import { RequestError } from '../errors/RequestError.js';
import type { ResponseRequest } from './responseRequest.js';

/**
 * An `Idempotency-Key` replays what was kept of the first response: the stored object, and for a
 * background response its event log. A response with `store: false` keeps neither and a foreground
 * stream keeps no events, so such a request with the header is a 400 naming it, not a silent second run.
 */
export function assertReplayable(request: ResponseRequest): void {
  const refusal = !request.store
    ? 'a response with store: false keeps nothing to replay'
    : request.stream && !request.background
      ? 'a foreground stream keeps no events to replay; stream with background: true to make it replayable'
      : undefined;
  if (refusal === undefined) return;
  throw new RequestError(
    400,
    `Idempotency-Key cannot be used here: ${refusal}`,
    'invalid_request_error',
    'Idempotency-Key',
    'unsupported_idempotency_key',
  );
}
