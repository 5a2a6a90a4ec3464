import type { ChatMessage } from '../../agent/agent.js';

/** A conversation a connection remembers, and its size as a store would count it. */
export interface RememberedConversation {
  readonly messages: readonly ChatMessage[];
  /** The bytes of its messages as JSON (as a stored chain's turns are counted), which `RXGATE_MAX_CONVERSATION_BYTES` bounds. */
  readonly bytes: number;
}

/** The bytes of `messages` as one JSON array: the array `continued` was, its `]` a `,`, and the added messages after it. */
function bytesOf(messages: readonly ChatMessage[], continued: RememberedConversation | undefined): number {
  if (!continued || continued.messages.length === 0) return Buffer.byteLength(JSON.stringify(messages));
  const added = messages.slice(continued.messages.length);
  if (added.length === 0) return continued.bytes;
  // `[a,b]` continued by `[c]`: `[a,b` + `,` + `c]`, which is `[a,b]` and `[c]` less one byte.
  return continued.bytes + Buffer.byteLength(JSON.stringify(added)) - 1;
}

/**
 * The responses one WebSocket connection made, by id, each as the conversation it left
 * (`ResponseTurn.conversation`): a `previous_response_id` is found here first, so that a chain
 * works with `store: false`. Holds at most `max`; the oldest is forgotten first.
 */
export class ConnectionMemory {
  readonly #conversations = new Map<string, RememberedConversation>();

  constructor(private readonly max: number) {}

  /**
   * Remembers `messages` as the conversation of `id`. Given the remembered conversation they
   * continue (their first messages), only what they add is serialised to count its bytes: a
   * rollout's turns would each serialise the whole conversation again.
   */
  remember(id: string, messages: readonly ChatMessage[], continued?: RememberedConversation): void {
    this.#conversations.set(id, { messages, bytes: bytesOf(messages, continued) });
    if (this.#conversations.size > this.max) this.#conversations.delete(this.#conversations.keys().next().value!);
  }

  recall(id: string): RememberedConversation | undefined {
    return this.#conversations.get(id);
  }
}
