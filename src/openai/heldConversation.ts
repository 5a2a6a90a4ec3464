import type { ChatMessage } from '../agent/agent.js';
import type { Principal } from '../principal.js';
import type { ConversationItem } from '../store/ConversationStore.js';

/**
 * A conversation that one response (or run) continues, held for it: no other continues it until
 * `release`. The Conversations API (a folder above this one) makes it; the Responses API
 * only uses it.
 */
export interface HeldConversation {
  /** Its items as chat messages, oldest first: what the model reads before the new input. */
  readonly history: readonly ChatMessage[];
  /** Appends items after the last, while it is still held (a holder whose lease lapsed appends nothing). */
  append(items: readonly ConversationItem[]): Promise<void>;
  /** Lets the next response continue it; idempotent. */
  release(): Promise<void>;
}

/** How a request asks to continue a conversation. */
export interface ConversationRequest {
  readonly id: string;
  readonly principal: Principal;
  /** `truncation: "auto"`: leave the oldest items out rather than refuse a conversation over the limit. */
  readonly truncate: boolean;
}

/** Holds the conversation a request continues: 404 when there is none (or it is another's), 409 while another holds it, 400 when it is too large. */
export type OpenConversation = (request: ConversationRequest) => Promise<HeldConversation>;
