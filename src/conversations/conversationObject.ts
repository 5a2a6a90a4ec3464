import type { ConversationRecord } from '../store/ConversationStore.js';

/** A conversation as OpenAI's Conversations API shows it. */
export interface ConversationObject {
  readonly id: string;
  readonly object: 'conversation';
  /** Unix seconds. */
  readonly created_at: number;
  readonly metadata: Readonly<Record<string, string>>;
}

export const conversationObject = ({
  id,
  created_at,
  metadata,
}: Pick<ConversationRecord, 'id' | 'created_at' | 'metadata'>): ConversationObject => ({
  id,
  object: 'conversation',
  created_at,
  metadata,
});
