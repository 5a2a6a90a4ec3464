import type { ChatMessage, ToolCall } from '../agent/agent.js';
import type { ApprovalAnswer, Approvals } from '../agent/approval.js';
import { RequestError } from '../errors/RequestError.js';
import type { InputItem } from '../openai/parseResponseInput.js';

/** How a turn deals with the calls of the conversation it continues that waited for approval. */
export interface ApprovalResume {
  /** The agent's approvals: always `end` in the Responses API, with the answers this input brought, by call id. */
  readonly approvals: Approvals;
  /** The calls this turn resumes (answered here), whose outcomes its stored turn must carry. */
  readonly resumed: readonly ToolCall[];
  /** Tool messages that close calls left unanswered by an input that went on without answering them. */
  readonly closed: readonly ChatMessage[];
}

const PREFIX = 'mcpr_';
const NOT_ANSWERED = 'Error: the call was not approved: the conversation went on without an answer to its approval request';

const invalid = (message: string, param: string) => new RequestError(400, message, 'invalid_request_error', param, 'invalid_value');

/** The calls of the agent's own tools that end `history` unanswered: those a previous response left waiting for approval. */
function awaitingApproval(history: readonly ChatMessage[], serverToolNames: readonly string[]): ToolCall[] {
  const last = history.at(-1);
  if (last?.role !== 'assistant') return [];
  return (last.tool_calls ?? []).filter((call) => serverToolNames.includes(call.function.name));
}

/**
 * Matches this input's `mcp_approval_response` items to the calls the previous response left
 * waiting (`mcp_approval_request` item `mcpr_<call id>`). An input of answers resumes the turn and
 * must answer each of them, and nothing else; an input that goes on without answering closes them
 * as not approved, so that the conversation stays one the upstream accepts.
 */
export function resumeApprovals(
  history: readonly ChatMessage[],
  input: readonly InputItem[],
  serverToolNames: readonly string[],
): ApprovalResume {
  const waiting = awaitingApproval(history, serverToolNames);
  const answers = input.flatMap((item, index) => (item.type === 'mcp_approval_response' ? [{ item, index }] : []));
  if (answers.length === 0) {
    const closed = waiting.map((call): ChatMessage => ({ role: 'tool', tool_call_id: call.id, content: NOT_ANSWERED }));
    return { approvals: { mode: 'end', decided: new Map() }, resumed: [], closed };
  }
  const other = input.findIndex((item) => item.type !== 'mcp_approval_response');
  if (other >= 0) throw invalid('send mcp_approval_response items on their own, without other input', `input[${other}]`);
  const decided = new Map<string, ApprovalAnswer>();
  for (const { item, index } of answers) {
    const callId = item.approval_request_id.startsWith(PREFIX) ? item.approval_request_id.slice(PREFIX.length) : '';
    if (!waiting.some((call) => call.id === callId)) {
      throw invalid(
        `'${item.approval_request_id}' is not an approval request the previous response is waiting on; continue it with previous_response_id`,
        `input[${index}].approval_request_id`,
      );
    }
    decided.set(callId, {
      approvalId: item.approval_request_id,
      choice: item.approve ? 'once' : 'deny',
      ...(item.reason ? { reason: item.reason } : {}),
      by: 'api',
    });
  }
  const missing = waiting.find((call) => !decided.has(call.id));
  if (missing) throw invalid(`answer every approval request of the previous response: '${PREFIX}${missing.id}' has no answer`, 'input');
  return { approvals: { mode: 'end', decided }, resumed: waiting, closed: [] };
}
