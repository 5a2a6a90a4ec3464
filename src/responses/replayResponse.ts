import type { Request, Response } from 'express';
import { serveLoggedEvents } from '../detached/serveLoggedEvents.js';
import { RequestError } from '../errors/RequestError.js';
import { UnavailableResponseError } from '../errors/UnavailableResponseError.js';
import type { Served } from '../pipeline/served.js';
import { currentResponse } from './currentResponse.js';
import { followedResponse } from './followedResponse.js';
import type { ResponseRequest } from './responseRequest.js';
import type { ResponsesContext } from './responsesContext.js';

/** 409 `idempotency_key_in_use`: the first request under the key has not stored its response (yet). */
const notStoredYet = (): RequestError =>
  new RequestError(
    409,
    'the first request with this Idempotency-Key has not stored its response yet (it is starting, or it failed before it was stored); retry',
    'invalid_request_error',
    'Idempotency-Key',
    'idempotency_key_in_use',
  );

/**
 * Answers a duplicate of the request that created response `id` (same `Idempotency-Key`, same
 * request) without running anything: a stream replays the background response's event log from
 * the start and then follows it live; otherwise the response as it stands (settled as first
 * answered, or still `in_progress`/`queued` while the first request runs); 409 before it is stored.
 */
export async function replayResponse(
  req: Request,
  res: Response,
  request: ResponseRequest,
  id: string,
  context: ResponsesContext,
): Promise<Served | undefined> {
  const response = await currentResponse(context, id).catch((error: unknown) => {
    throw error instanceof UnavailableResponseError && error.tombstone === undefined ? notStoredYet() : error;
  });
  res.set('Idempotency-Replayed', 'true');
  if (request.stream) return serveLoggedEvents(req, res, followedResponse(context, id, -1, response.status), context);
  res.json(response);
  return undefined;
}
