import type { RequestHandler } from 'express';
import { InterruptReason } from '../../agent/interruptReason.js';
import { replayEvents } from '../../detached/replayEvents.js';
import { RequestError } from '../../errors/RequestError.js';
import type { ResponseObject } from '../../protocol/responses/responseObject.js';
import { missingResponse } from '../../store/ResponseStore.js';
import { parseEventCursor } from '../parseEventCursor.js';
import { streamLoggedEvents } from '../streamLoggedEvents.js';
import type { ResponsesContext } from './responsesContext.js';

/** The response as it stands: live for a background response in flight, else from the store; 404 with a reason otherwise. */
function currentResponse(context: ResponsesContext, id: string): ResponseObject {
  const live = context.liveDrafts.get(id);
  if (live) return live.snapshot('in_progress');
  const stored = context.store.responses.get(id);
  if (stored?.kind === 'response') return stored.response;
  throw missingResponse(id, stored?.tombstone, null);
}

const idOf = (params: Record<string, string | string[]>): string => String(params.id);

/** `GET /v1/responses/{id}`, or with `?stream=true&starting_after=N` a background response's events after N. */
export function retrieveResponseRoute(context: ResponsesContext): RequestHandler {
  return async (req, res) => {
    const id = idOf(req.params);
    const response = currentResponse(context, id);
    if (req.query.stream !== 'true') {
      res.json(response);
      return;
    }
    const after = parseEventCursor(req.query.starting_after, 'starting_after');
    if (!response.background) {
      throw new RequestError(
        400,
        `response '${id}' was not created with background: true, so its events were not kept`,
        'invalid_request_error',
        'stream',
        'invalid_value',
      );
    }
    await streamLoggedEvents(res, replayEvents(context.store.events, context.detached, id, after), context);
  };
}

/** `POST /v1/responses/{id}/cancel`: stops a background response; a settled one is returned as it is. */
export function cancelResponseRoute(context: ResponsesContext): RequestHandler {
  return async (req, res) => {
    const id = idOf(req.params);
    const response = currentResponse(context, id);
    if (!response.background) {
      throw new RequestError(
        400,
        `response '${id}' is not a background response; only those can be cancelled`,
        'invalid_request_error',
        null,
        'not_background',
      );
    }
    await context.detached.get(id)?.stop(InterruptReason.stopRequested);
    res.json(currentResponse(context, id));
  };
}

/** `DELETE /v1/responses/{id}`: stops it if it runs, and leaves a tombstone so that chains through it say why they broke. */
export function deleteResponseRoute(context: ResponsesContext): RequestHandler {
  return async (req, res) => {
    const id = idOf(req.params);
    currentResponse(context, id);
    await context.detached.get(id)?.stop(InterruptReason.stopRequested);
    context.store.responses.delete(id);
    context.store.events.remove(id);
    res.json({ id, object: 'response', deleted: true });
  };
}
