import type { Request, Response } from 'express';
import { serveLoggedEvents } from '../detached/serveLoggedEvents.js';
import { UnavailableResponseError } from '../errors/UnavailableResponseError.js';
import { idempotencyKeyInUse } from '../serving/readIdempotencyKey.js';
import type { Served } from '../serving/served.js';
import { sendJsonAnswer, type JsonAnswer } from '../serving/jsonAnswer.js';
import { HTTP_ANSWER_EVENT } from './keptResponse.js';
import { currentResponse } from './currentResponse.js';
import { followedResponse } from './followedResponse.js';
import type { ResponseRequest } from './responseRequest.js';
import type { ResponsesContext } from './responsesContext.js';

/** The first request under the key has not stored its response (yet). */
const notStoredYet = () => idempotencyKeyInUse('has not stored its response yet (it is starting, or it failed before it was stored)');

/**
 * Answers a duplicate of the request that created response `id` (same `Idempotency-Key`, same
 * request) without running anything: a stream replays the response's event log from the start
 * and then follows it live; a response first answered with an HTTP error, that error again;
 * otherwise the response as it stands (settled as first answered, or still
 * `in_progress`/`queued` while the first request runs); 409 before it is stored.
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
  const answer = response.status === 'failed' && !response.background ? await context.store.events.last(id) : undefined;
  if (answer?.type === HTTP_ANSWER_EVENT) sendJsonAnswer(res, JSON.parse(answer.data) as JsonAnswer);
  else res.json(response);
  return undefined;
}
