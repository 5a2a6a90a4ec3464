import { randomBytes } from 'node:crypto';
import type { ChatMessage } from '../agent/agent.js';
import { toInputItems } from '../responses/toInputItems.js';
import type { ConversationItem } from '../store/ConversationStore.js';

/**
 * Chat messages as conversation items, in the shapes the Responses API lists input items in. Their
 * ids are made from `key` and their place (`msg_<hex>_i0`, `fc_<hex>_i1`), so they are unique when
 * the key is: a response's id for its input, a fresh key for anything else.
 */
export function toConversationItems(messages: readonly ChatMessage[], key = `resp_${randomBytes(16).toString('hex')}`): ConversationItem[] {
  return toInputItems(key, messages);
}
