import { randomBytes } from 'node:crypto';
import type { ChatMessage } from '../agent/agent.js';
import { toInputItems } from './toInputItems.js';
import type { ConversationItem } from '../store/ConversationStore.js';

/**
 * Chat messages as new conversation items, in the shapes the Responses API lists input items in,
 * with ids as those have (`msg_<hex>_i0`, `fc_<hex>_i1`), from a fresh random key.
 */
export function toConversationItems(messages: readonly ChatMessage[]): ConversationItem[] {
  return toInputItems(`resp_${randomBytes(16).toString('hex')}`, messages);
}
