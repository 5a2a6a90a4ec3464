import type { OpenConversation } from '../openai/heldConversation.js';
import type { ConversationStore } from '../store/ConversationStore.js';
import { conversationHistory } from './conversationHistory.js';
import { conversationNotFound, findConversation } from './findConversation.js';
import { holdConversation } from './holdConversation.js';

/**
 * How `POST /v1/responses` and `POST /v1/runs` hold the conversation it continues: found (404 when it is missing or
 * another's), locked (409 while another response or run holds it), its items read as the history
 * (`maxBytes`: `RXGATE_MAX_CONVERSATION_BYTES`). Its appends go through only while it still holds the lock.
 */
export function createConversationOpener(store: ConversationStore, maxBytes: number): OpenConversation {
  return async ({ id, principal, truncate }) => {
    await findConversation(store, id, principal, 'conversation');
    const hold = await holdConversation(store, id, 'conversation');
    try {
      const items = await store.items(id);
      if (!items) throw conversationNotFound(id, 'conversation');
      return {
        history: conversationHistory(id, items, { maxBytes, truncate }),
        append: async (items) => {
          await store.append(id, items, hold.holder);
        },
        release: hold.release,
      };
    } catch (error) {
      await hold.release();
      throw error;
    }
  };
}
