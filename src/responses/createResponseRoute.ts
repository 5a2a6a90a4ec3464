import { serveLoggedEvents } from '../detached/serveLoggedEvents.js';
import { localsOf } from '../pipeline/requestLocals.js';
import type { RouteHandler } from '../pipeline/routeHandler.js';
import { assertResponseOwner } from './assertResponseOwner.js';
import { followedResponse } from './followedResponse.js';
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
    const { principal } = localsOf(res);
    if (request.previousResponseId)
      await assertResponseOwner(context.store, request.previousResponseId, principal, request.previousResponseId);
    const turn = await createResponseTurn(request, context.store, {
      owner: principal.id,
      defaultModel: context.defaultModel,
      serverToolNames: context.agent.serverToolNames ?? [],
      maxConversationBytes: context.maxConversationBytes,
      trace: localsOf(res).trace,
    });
    if (!request.background) return request.stream ? streamResponse(req, res, turn, context) : respondResponse(req, res, turn, context);
    const snapshot = turn.draft.snapshot('queued');
    const run = await startBackgroundResponse(turn, context);
    localsOf(res).keepSlotUntil?.(run.ended);
    if (!request.stream) {
      res.json(snapshot);
      return;
    }
    return serveLoggedEvents(req, res, followedResponse(context, run.id, -1), context);
  };
}
