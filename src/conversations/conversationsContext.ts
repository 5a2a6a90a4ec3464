import type { Store } from '../store/Store.js';

/** What the Conversations API routes share. */
export interface ConversationsContext {
  readonly store: Store;
}
