import { serveLoggedEvents } from '../detached/serveLoggedEvents.js';
import { claimIdempotencyKey } from '../serving/claimIdempotencyKey.js';
import { readIdempotencyKey } from '../serving/readIdempotencyKey.js';
import { localsOf } from '../serving/requestLocals.js';
import type { RouteHandler } from '../serving/routeHandler.js';
import { assertReplayable } from './assertReplayable.js';
import { assertResponseOwner } from '../openai/assertResponseOwner.js';
import type { KeptResponse } from './keptResponse.js';
import { continueConversation } from './continueConversation.js';
import { followedResponse } from './followedResponse.js';
import { respondResponse } from './respondResponse.js';
import { replayResponse } from './replayResponse.js';
import { parseResponseRequest } from './responseRequest.js';
import { hostedToolsOf } from './hostedToolPlacement.js';
import type { ResponsesContext } from './responsesContext.js';
import { createResponseTurn } from './responseTurn.js';
import { startBackgroundResponse } from './startBackgroundResponse.js';
import { streamResponse } from './streamResponse.js';

/** Names the hosted tools a request sent that the model was not offered. */
const IGNORED_TOOLS_HEADER = 'x-rxgate-ignored-tools';

/**
 * `POST /v1/responses`: streaming or not, in the foreground or in the background; with
 * `conversation`, continuing it (held until the response settles) and appended to. With an
 * `Idempotency-Key` its owner used before for the same request, the response that request
 * created, replayed (`Idempotency-Replayed: true`); used for another request, 422. A foreground
 * response whose client left before its answer gives the key up: a retry runs again.
 */
export function createResponseRoute(context: ResponsesContext): RouteHandler {
  return async (req, res) => {
    const request = parseResponseRequest(req.body, hostedToolsOf(context));
    const { principal, trace, logger } = localsOf(res);
    if (request.ignoredTools.length > 0) {
      res.setHeader(IGNORED_TOOLS_HEADER, request.ignoredTools.join(','));
      logger.info({ ignoredTools: request.ignoredTools }, 'hosted tools left out of the offer (RXGATE_HOSTED_TOOLS=ignore)');
    }
    const key = readIdempotencyKey(req);
    if (key !== undefined) assertReplayable(request);
    if (request.previousResponseId)
      await assertResponseOwner(context.store, request.previousResponseId, principal, request.previousResponseId);
    const held = request.conversation
      ? await context.openConversation({ id: request.conversation, principal, truncate: request.truncate })
      : undefined;
    // A background response that started releases the conversation when it settles; anything else here.
    let handedOver = false;
    try {
      const turn = await createResponseTurn(request, context.store, {
        principal,
        defaultModel: context.defaultModel,
        serverToolNames: context.agent.serverToolNames ?? [],
        maxConversationBytes: context.maxConversationBytes,
        trace,
        history: held?.history,
      });
      const claimed = await claimIdempotencyKey(req, turn.draft.meta.id, {
        idempotency: context.store.idempotency,
        owner: principal.id,
        ttlMs: context.idempotencyTtlMs,
      });
      if (claimed.replayed) return await replayResponse(req, res, request, claimed.id, context);
      const continued = held ? continueConversation(turn, held) : turn;
      if (!request.background) {
        const id = continued.draft.meta.id;
        const kept: KeptResponse | undefined =
          key === undefined ? undefined : { release: () => context.store.idempotency.release(principal.id, key, id) };
        return await (request.stream
          ? streamResponse(req, res, continued, context, kept)
          : respondResponse(req, res, continued, context, kept));
      }
      const snapshot = continued.draft.snapshot('queued');
      const run = await startBackgroundResponse(continued, context).catch(async (error: unknown) => {
        // Refused before it ran (the cap, the store): no answer to keep, so the retry runs it.
        if (key !== undefined) await context.store.idempotency.release(principal.id, key, claimed.id).catch(() => undefined);
        throw error;
      });
      handedOver = true;
      localsOf(res).keepSlotUntil?.(run.ended);
      if (!request.stream) {
        res.json(snapshot);
        return;
      }
      return serveLoggedEvents(req, res, followedResponse(context, run.id, -1), context);
    } finally {
      if (!handedOver) await held?.release();
    }
  };
}
