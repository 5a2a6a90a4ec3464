import type { AgentEvent, AgentEventOf } from './agentEvent.js';

/**
 * The state of `sequenceToolCalls`, for an encoder that sequences in its own subscriber: the
 * first client tool call's pieces pass, the pieces of the others are held until `release`, which
 * returns them call by call in `index` order. Holds nothing (no map) until a second call shows up.
 */
export class ToolCallSequence {
  #live: number | undefined;
  #held: Map<number, AgentEventOf<'tool_call_delta'>[]> | undefined;

  /** Whether `event` is held for later (a piece of a call other than the first); every other event passes. */
  holds(event: AgentEvent): boolean {
    if (event.type !== 'tool_call_delta') return false;
    this.#live ??= event.index;
    if (event.index === this.#live) return false;
    this.#held ??= new Map();
    const pieces = this.#held.get(event.index);
    if (pieces) pieces.push(event);
    else this.#held.set(event.index, [event]);
    return true;
  }

  /** Every held piece, call by call in `index` order, and none again. */
  release(): AgentEvent[] {
    const held = this.#held;
    if (!held) return [];
    this.#held = undefined;
    return [...held.entries()].sort(([a], [b]) => a - b).flatMap(([, calls]) => calls);
  }
}
