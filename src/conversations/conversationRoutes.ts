import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { metadata } from '../openai/modelOptionFields.js';
import { RequestError } from '../errors/RequestError.js';
import { assertObjectBody, invalidRequest } from '../errors/invalidRequest.js';
import { localsOf } from '../serving/requestLocals.js';
import type { RouteHandler } from '../serving/routeHandler.js';
import { parseResponseInput } from '../openai/parseResponseInput.js';
import { resolveItemReferences } from '../openai/resolveItemReferences.js';
import { toChatMessages } from '../openai/toChatMessages.js';
import { toListPage } from '../openai/toListPage.js';
import type { Principal } from '../principal.js';
import type { Store } from '../store/Store.js';
import { conversationObject } from './conversationObject.js';
import type { ConversationsContext } from './conversationsContext.js';
import { conversationNotFound, findConversation } from './findConversation.js';
import { toConversationItems } from '../openai/toConversationItems.js';

/** How many items one request may add, as in OpenAI's API. */
const MAX_NEW_ITEMS = 20;

const newItems = z
  .array(z.unknown(), { error: 'items must be an array of input items' })
  .max(MAX_NEW_ITEMS, `more than ${MAX_NEW_ITEMS} items`);
const createSchema = z.object({ items: newItems.nullable().optional(), metadata });
const updateSchema = z.object({ metadata });
const appendSchema = z.object({ items: newItems.min(1, 'items must not be empty') });

const param = (params: Record<string, string | string[]>, name: string): string => String(params[name]);

/** Input items (references resolved, to items `principal` may see) as conversation items. */
async function toItems(store: Store, principal: Principal, items: readonly unknown[] | null | undefined, body: unknown) {
  if (!items || items.length === 0) return [];
  return toConversationItems(
    toChatMessages(await resolveItemReferences(parseResponseInput(items, body, 'items'), store, principal, 'items')).messages,
  );
}

function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  assertObjectBody(body);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalidRequest(parsed.error, body);
  return parsed.data;
}

/** `POST /v1/conversations`: a new conversation, owned by the request's principal, with up to 20 items. */
export function createConversationRoute({ store }: ConversationsContext): RouteHandler {
  return async (req, res) => {
    const body = parseBody(createSchema, req.body ?? {});
    const items = await toItems(store, localsOf(res).principal, body.items, req.body);
    const conversation = {
      id: `conv_${randomUUID().replaceAll('-', '')}`,
      created_at: Math.floor(Date.now() / 1000),
      metadata: body.metadata ?? {},
      owner: localsOf(res).principal.id,
    };
    await store.conversations.create(conversation, items);
    res.json(conversationObject(conversation));
  };
}

/** `GET /v1/conversations/{id}`. */
export function retrieveConversationRoute({ store }: ConversationsContext): RouteHandler {
  return async (req, res) => {
    res.json(conversationObject(await findConversation(store.conversations, param(req.params, 'id'), localsOf(res).principal)));
  };
}

/** `POST /v1/conversations/{id}`: replaces its `metadata`. */
export function updateConversationRoute({ store }: ConversationsContext): RouteHandler {
  return async (req, res) => {
    const id = param(req.params, 'id');
    const body = parseBody(updateSchema, req.body);
    await findConversation(store.conversations, id, localsOf(res).principal);
    const updated = await store.conversations.setMetadata(id, body.metadata ?? {});
    if (!updated) throw conversationNotFound(id);
    res.json(conversationObject(updated));
  };
}

/** `DELETE /v1/conversations/{id}`: the conversation and its items. */
export function deleteConversationRoute({ store }: ConversationsContext): RouteHandler {
  return async (req, res) => {
    const id = param(req.params, 'id');
    await findConversation(store.conversations, id, localsOf(res).principal);
    await store.conversations.delete(id);
    res.json({ id, object: 'conversation.deleted', deleted: true });
  };
}

/** `GET /v1/conversations/{id}/items`: paged as OpenAI pages lists (`after`, `limit`, `order`, newest first by default). */
export function listItemsRoute({ store }: ConversationsContext): RouteHandler {
  return async (req, res) => {
    const id = param(req.params, 'id');
    await findConversation(store.conversations, id, localsOf(res).principal);
    const items = await store.conversations.items(id);
    if (!items) throw conversationNotFound(id);
    res.json(toListPage(items, req.query));
  };
}

/** `POST /v1/conversations/{id}/items`: appends up to 20 items, answered as a list of them. */
export function appendItemsRoute({ store }: ConversationsContext): RouteHandler {
  return async (req, res) => {
    const id = param(req.params, 'id');
    const body = parseBody(appendSchema, req.body);
    await findConversation(store.conversations, id, localsOf(res).principal);
    const items = await toItems(store, localsOf(res).principal, body.items, req.body);
    if (!(await store.conversations.append(id, items))) throw conversationNotFound(id);
    res.json({ object: 'list', data: items, first_id: items[0]?.id ?? null, last_id: items.at(-1)?.id ?? null, has_more: false });
  };
}

const itemNotFound = (id: string, itemId: string) =>
  new RequestError(404, `item '${itemId}' not found in conversation '${id}'`, 'invalid_request_error', null, 'item_not_found');

/** `GET /v1/conversations/{id}/items/{item_id}`. */
export function retrieveItemRoute({ store }: ConversationsContext): RouteHandler {
  return async (req, res) => {
    const id = param(req.params, 'id');
    const itemId = param(req.params, 'itemId');
    await findConversation(store.conversations, id, localsOf(res).principal);
    const item = await store.conversations.item(id, itemId);
    if (!item) throw itemNotFound(id, itemId);
    res.json(item);
  };
}

/** `DELETE /v1/conversations/{id}/items/{item_id}`: answered with the conversation, as OpenAI does. */
export function deleteItemRoute({ store }: ConversationsContext): RouteHandler {
  return async (req, res) => {
    const id = param(req.params, 'id');
    const itemId = param(req.params, 'itemId');
    const conversation = await findConversation(store.conversations, id, localsOf(res).principal);
    if (!(await store.conversations.deleteItem(id, itemId))) throw itemNotFound(id, itemId);
    res.json(conversationObject(conversation));
  };
}
