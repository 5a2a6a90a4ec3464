import type { ChatMessage } from '../../agent/agent.js';

/** A conversation a connection remembers, and its size as a store would count it. */
export interface RememberedConversation {
  readonly messages: readonly ChatMessage[];
  /** The bytes of its messages as JSON (as a stored chain's turns are counted), which `RXGATE_MAX_CONVERSATION_BYTES` bounds. */
  readonly bytes: number;
}

/**
 * The responses one WebSocket connection made, by id, each as the conversation it left
 * (`ResponseTurn.conversation`): a `previous_response_id` is found here first, so that a chain
 * works with `store: false`. Holds at most `max`; the oldest is forgotten first.
 */
export class ConnectionMemory {
  readonly #conversations = new Map<string, RememberedConversation>();

  constructor(private readonly max: number) {}

  remember(id: string, messages: readonly ChatMessage[]): void {
    this.#conversations.set(id, { messages, bytes: Buffer.byteLength(JSON.stringify(messages)) });
    if (this.#conversations.size > this.max) this.#conversations.delete(this.#conversations.keys().next().value!);
  }

  recall(id: string): RememberedConversation | undefined {
    return this.#conversations.get(id);
  }
}
