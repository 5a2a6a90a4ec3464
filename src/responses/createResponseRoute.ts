import type { RequestHandler } from 'express';
import { replayEvents } from '../detached/replayEvents.js';
import { streamLoggedEvents } from '../detached/streamLoggedEvents.js';
import { parseResponseRequest } from './responseRequest.js';
import type { ResponsesContext } from './responsesContext.js';
import { createResponseTurn } from './responseTurn.js';
import { respondResponse } from './respondResponse.js';
import { startBackgroundResponse } from './startBackgroundResponse.js';
import { streamResponse } from './streamResponse.js';

/** `POST /v1/responses`: streaming or not, in the foreground or in the background. */
export function createResponseRoute(context: ResponsesContext): RequestHandler {
  return async (req, res) => {
    const request = parseResponseRequest(req.body);
    const turn = createResponseTurn(request, context.store, context.defaultModel);
    if (!request.background) {
      await (request.stream ? streamResponse(res, turn, context) : respondResponse(res, turn, context));
      return;
    }
    const { id } = turn.draft.meta;
    const queued = turn.draft.snapshot('queued');
    startBackgroundResponse(turn, context);
    if (request.stream) await streamLoggedEvents(res, replayEvents(context.store.events, context.detached, id, -1), context);
    else res.json(queued);
  };
}
