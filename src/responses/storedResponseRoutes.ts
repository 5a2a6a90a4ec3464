import { parseEventCursor } from '../detached/parseEventCursor.js';
import { serveLoggedEvents } from '../detached/serveLoggedEvents.js';
import { stopDetached } from '../detached/stopDetached.js';
import { RequestError } from '../errors/RequestError.js';
import { UnavailableResponseError } from '../errors/UnavailableResponseError.js';
import { localsOf } from '../serving/requestLocals.js';
import type { RouteHandler } from '../serving/routeHandler.js';
import { assertResponseOwner } from '../openai/assertResponseOwner.js';
import { currentResponse } from './currentResponse.js';
import { followedResponse } from './followedResponse.js';
import { TERMINAL_RESPONSE_EVENTS, type ResponseObject } from '../openai/responseObject.js';
import type { ResponsesContext } from './responsesContext.js';
import { storedInputItems } from '../openai/storedInputItems.js';
import { toListPage } from '../openai/toListPage.js';

const isUnfinished = ({ status }: ResponseObject) => status === 'queued' || status === 'in_progress';
const isTerminal = ({ type }: { readonly type: string }) => TERMINAL_RESPONSE_EVENTS.has(type);

const stopOptions = (context: ResponsesContext, id: string) => ({
  isTerminal,
  isSettled: async () => !isUnfinished(await currentResponse(context, id)),
});

const idOf = (params: Record<string, string | string[]>): string => String(params.id);

/** `GET /v1/responses/{id}`, or with `?stream=true&starting_after=N` a background response's events after N. */
export function retrieveResponseRoute(context: ResponsesContext): RouteHandler {
  return async (req, res) => {
    const id = idOf(req.params);
    await assertResponseOwner(context.store, id, localsOf(res).principal);
    const response = await currentResponse(context, id);
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
    return serveLoggedEvents(req, res, followedResponse(context, id, after, response.status), context);
  };
}

/** `POST /v1/responses/{id}/cancel`: stops a background response; a settled one is returned as it is. */
export function cancelResponseRoute(context: ResponsesContext): RouteHandler {
  return async (req, res) => {
    const id = idOf(req.params);
    await assertResponseOwner(context.store, id, localsOf(res).principal);
    const response = await currentResponse(context, id);
    if (!response.background) {
      throw new RequestError(
        400,
        `response '${id}' is not a background response; only those can be cancelled`,
        'invalid_request_error',
        null,
        'not_background',
      );
    }
    if (isUnfinished(response)) await stopDetached(context, id, 'response', stopOptions(context, id));
    res.json(await currentResponse(context, id));
  };
}

/** `DELETE /v1/responses/{id}`: stops it if it runs, and leaves a tombstone so that chains through it say why they broke. */
export function deleteResponseRoute(context: ResponsesContext): RouteHandler {
  return async (req, res) => {
    const id = idOf(req.params);
    await assertResponseOwner(context.store, id, localsOf(res).principal);
    const response = await currentResponse(context, id);
    if (response.background && isUnfinished(response)) await stopDetached(context, id, 'response', stopOptions(context, id));
    await context.store.responses.delete(id);
    await context.store.events.remove(id);
    res.json({ id, object: 'response', deleted: true });
  };
}

/**
 * `GET /v1/responses/{id}/input_items`: the input items a stored response was given, with
 * `item_reference`s as the items they named, paged as OpenAI pages lists (`order`, `limit`, `after`).
 */
export function inputItemsRoute(context: ResponsesContext): RouteHandler {
  return async (req, res) => {
    const id = idOf(req.params);
    await assertResponseOwner(context.store, id, localsOf(res).principal);
    const stored = await context.store.responses.get<ResponseObject>(id);
    if (stored?.kind !== 'response') throw new UnavailableResponseError(id, stored?.tombstone);
    res.json(toListPage(storedInputItems(id, stored.turn), req.query));
  };
}
