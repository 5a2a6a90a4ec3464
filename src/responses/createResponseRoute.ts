import { replayEvents } from '../detached/replayEvents.js';
import { serveLoggedEvents } from '../detached/serveLoggedEvents.js';
import type { RouteHandler } from '../pipeline/routeHandler.js';
import { respondResponse } from './respondResponse.js';
import { parseResponseRequest } from './responseRequest.js';
import type { ResponsesContext } from './responsesContext.js';
import { createResponseTurn } from './responseTurn.js';
import { startBackgroundResponse } from './startBackgroundResponse.js';
import { streamResponse } from './streamResponse.js';

/** `POST /v1/responses`: streaming or not, in the foreground or in the background. */
export function createResponseRoute(context: ResponsesContext): RouteHandler {
  return async (req, res) => {
    const request = parseResponseRequest(req.body);
    const turn = createResponseTurn(request, context.store, {
      defaultModel: context.defaultModel,
      serverToolNames: context.agent.serverToolNames ?? [],
      maxConversationBytes: context.maxConversationBytes,
    });
    if (!request.background) return request.stream ? streamResponse(req, res, turn, context) : respondResponse(req, res, turn, context);
    const queued = turn.draft.snapshot('queued');
    const run = startBackgroundResponse(turn, context);
    if (!request.stream) {
      res.json(queued);
      return;
    }
    return serveLoggedEvents(req, res, replayEvents(context.store.events, run.id, run, -1), context);
  };
}
