import type { ToolCall } from './agent.js';
import type { AgentEventOf } from './agentEvent.js';

/**
 * The client tool calls a run's `tool_call_delta` events describe, in `index` order: what a
 * non-streaming encoder puts in the assistant message's `tool_calls`.
 *
 * @example
 * assembleToolCalls([
 *   { type: 'tool_call_delta', index: 0, id: 'call_1', name: 'get_weather', arguments: '{"city":' },
 *   { type: 'tool_call_delta', index: 0, arguments: '"Paris"}' },
 * ]); // [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }]
 */
export function assembleToolCalls(deltas: readonly AgentEventOf<'tool_call_delta'>[]): ToolCall[] {
  const calls = new Map<number, { id: string; name: string; arguments: string[] }>();
  for (const delta of deltas) {
    const call = calls.get(delta.index) ?? { id: '', name: '', arguments: [] };
    calls.set(delta.index, call);
    if (delta.id !== undefined) call.id = delta.id;
    if (delta.name !== undefined) call.name = delta.name;
    call.arguments.push(delta.arguments);
  }
  return [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, call]) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments.join('') } }));
}
