import type { ChatMessage } from '../../agent/agent.js';

/**
 * The responses one WebSocket connection made, by id, each as the conversation it left
 * (`ResponseTurn.conversation`): a `previous_response_id` is found here first, so that a chain
 * works with `store: false`. Holds at most `max`; the oldest is forgotten first.
 */
export class ConnectionMemory {
  readonly #conversations = new Map<string, readonly ChatMessage[]>();

  constructor(private readonly max: number) {}

  remember(id: string, conversation: readonly ChatMessage[]): void {
    this.#conversations.set(id, conversation);
    if (this.#conversations.size > this.max) this.#conversations.delete(this.#conversations.keys().next().value!);
  }

  recall(id: string): readonly ChatMessage[] | undefined {
    return this.#conversations.get(id);
  }
}
