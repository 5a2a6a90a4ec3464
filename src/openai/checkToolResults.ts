import type { ChatMessage } from '../agent/agent.js';
import { findOrphanToolMessage } from '../agent/findOrphanToolMessage.js';
import { RequestError } from '../errors/RequestError.js';

/**
 * Refuses a conversation with a `tool` message whose `tool_call_id` answers no earlier call:
 * upstreams refuse such a history with an error that names nothing the client sent. `paramOf`
 * says where the client sent the message at an index (`messages[3].tool_call_id`); undefined
 * leaves a message that did not come from this request (a stored turn) unchecked.
 */
export function checkToolResults(messages: readonly ChatMessage[], paramOf: (index: number) => string | undefined): void {
  const index = findOrphanToolMessage(messages);
  const orphan = index === undefined ? undefined : messages[index];
  const param = index === undefined ? undefined : paramOf(index);
  if (orphan?.role !== 'tool' || param === undefined) return;
  throw new RequestError(
    400,
    `the tool result for '${orphan.tool_call_id}' answers no tool call of an earlier assistant message; send the assistant message with its tool_calls before the results`,
    'invalid_request_error',
    param,
    'unknown_tool_call',
  );
}
