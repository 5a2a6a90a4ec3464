import { RequestError } from '../errors/RequestError.js';
import { mayAccess, type Principal } from '../principal.js';
import type { ConversationRecord, ConversationStore } from '../store/ConversationStore.js';

/** The 404 of a conversation that does not exist, and of one that `principal` may not see: the same, so that it tells nothing. */
export const conversationNotFound = (id: string, param: string | null = null): RequestError =>
  new RequestError(404, `conversation '${id}' not found`, 'invalid_request_error', param, 'conversation_not_found');

/** Conversation `id` if it exists and `principal` may see it, else `conversationNotFound`. */
export async function findConversation(
  store: ConversationStore,
  id: string,
  principal: Principal,
  param: string | null = null,
): Promise<ConversationRecord> {
  const conversation = await store.get(id);
  if (!conversation || !mayAccess(principal, conversation.owner)) throw conversationNotFound(id, param);
  return conversation;
}
