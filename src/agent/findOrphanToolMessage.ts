import type { ChatMessage } from './agent.js';

/**
 * The index of the first `tool` message whose `tool_call_id` answers no call of an earlier
 * `assistant` message, or `undefined` when every tool result has its call. Upstreams refuse
 * such a history, so the HTTP layer answers 400 naming `messages[index].tool_call_id` instead.
 *
 * @example
 * findOrphanToolMessage([
 *   { role: 'user', content: 'weather?' },
 *   { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
 * ]); // 1
 */
export function findOrphanToolMessage(messages: readonly ChatMessage[]): number | undefined {
  const called = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) called.add(call.id);
    else if (message.role === 'tool' && !called.has(message.tool_call_id)) return index;
  }
  return undefined;
}
