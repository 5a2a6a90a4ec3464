import { randomBytes } from 'node:crypto';
import { concat, defer, EMPTY, first, map, merge, of, race, switchMap, timer, type Observable, type SchedulerLike } from 'rxjs';
import type { AgentEvent, AgentEventOf } from '../agentEvent.js';
import type { ApprovalAnswer, Approvals } from '../approval.js';
import type { ApprovedAlways } from './ApprovedAlways.js';
import { runToolCall, type ToolCallRequest } from './runToolCall.js';
import type { Tool } from './tool.js';

/** What one run's tool calls are checked against before they start. */
export interface ToolGate {
  readonly needsApproval: (tool: Tool) => boolean;
  readonly approvals?: Approvals;
  /** The tools a person answered `always` for in this run; filled in as they do. */
  readonly approvedAlways: ApprovedAlways;
  readonly scheduler: SchedulerLike;
}

/** Whether this call waits for a person: its tool needs approval and nobody said `always` for it in this run. */
function waitsForApproval(tool: Tool | undefined, gate: ToolGate): tool is Tool {
  return tool !== undefined && gate.needsApproval(tool) && !gate.approvedAlways.has(tool.name);
}

/** The `approval_required` event of a call. */
function approvalRequired(tool: Tool, call: ToolCallRequest, approvalId: string, expiresAt?: number): AgentEventOf<'approval_required'> {
  return {
    type: 'approval_required',
    approvalId,
    callId: call.callId,
    name: call.name,
    arguments: call.arguments,
    ...(expiresAt === undefined ? {} : { expiresAt }),
    ...(tool.origin ? { origin: tool.origin } : {}),
  };
}

/** The approval id of a call in `end` mode: the id of its `mcp_approval_request` item, from which the answer finds the call again. */
function endModeApprovalId(callId: string): string {
  return `mcpr_${callId}`;
}

/**
 * In `end` mode, the `approval_required` events of the calls of a turn that wait for an answer not
 * yet given: if there is any, none of the turn's calls runs and the run ends with them. None in
 * any other mode.
 */
export function pendingApprovals(
  calls: readonly { readonly tool: Tool | undefined; readonly call: ToolCallRequest }[],
  gate: ToolGate,
): AgentEventOf<'approval_required'>[] {
  const { approvals } = gate;
  if (approvals?.mode !== 'end') return [];
  return calls.flatMap(({ tool, call }) =>
    waitsForApproval(tool, gate) && !approvals.decided.has(call.callId)
      ? [approvalRequired(tool, call, endModeApprovalId(call.callId))]
      : [],
  );
}

/** What the model reads for a refused call: that a person refused it (or nobody answered), and why. */
function refusal(call: ToolCallRequest, answer: ApprovalAnswer): AgentEventOf<'tool_end'> {
  const error =
    answer.by === 'timeout'
      ? `the call was not approved: ${answer.reason}`
      : `a person refused this call${answer.reason ? `: ${answer.reason}` : ' (no reason given)'}`;
  return { type: 'tool_end', callId: call.callId, name: call.name, error, durationMs: 0 };
}

/**
 * One tool call, asking a person first when its tool needs approval. With `approvals` in `wait`
 * mode it emits `approval_required` and waits for the answer or for `timeoutMs` (a deny whose
 * reason says it timed out); with an answer already `decided` (`end` mode, a resumed turn) it goes
 * on at once. Then `approval_resolved`, and the call runs (`once`, `always`) or its `tool_end`
 * carries the refusal (`deny`). An `always` given to another call of the same tool while this one
 * waits resolves this one too, in the same frame, as the same person's answer. Unsubscribing while
 * it waits (a stop) means the call never starts.
 *
 * ```
 * answers$:  -------d--         d = deny of this approval
 * result:    R------(DE|)       R = approval_required, D = approval_resolved, E = tool_end with the refusal
 * ```
 */
export function gateToolCall(tool: Tool | undefined, call: ToolCallRequest, signal: AbortSignal, gate: ToolGate): Observable<AgentEvent> {
  const { approvals, scheduler } = gate;
  if (!waitsForApproval(tool, gate) || approvals === undefined) return runToolCall(tool, call, signal);
  const decide$ = (answer: ApprovalAnswer): Observable<AgentEvent> => {
    const { approvalId, choice, reason, by, requestId } = answer;
    const resolved: AgentEventOf<'approval_resolved'> = {
      type: 'approval_resolved',
      approvalId,
      callId: call.callId,
      name: call.name,
      choice,
      ...(reason === undefined ? {} : { reason }),
      by,
      ...(requestId === undefined ? {} : { requestId }),
      at: scheduler.now(),
    };
    if (choice === 'deny') return concat(of(resolved), of(refusal(call, answer)));
    const run$ = runToolCall(tool, call, signal);
    // Once this call has started, an `always` lets the waiting calls of the same tool go on too.
    const releaseWaiting$ = defer(() => (gate.approvedAlways.add(tool.name, answer), EMPTY));
    return concat(of(resolved), choice === 'always' ? merge(run$, releaseWaiting$) : run$);
  };
  if (approvals.mode === 'end') {
    const answer = approvals.decided.get(call.callId);
    // Unanswered, the call does not run: the run ends with its request (`pendingApprovals`).
    return answer ? decide$(answer) : of(approvalRequired(tool, call, endModeApprovalId(call.callId)));
  }
  const { answers$, timeoutMs } = approvals;
  return defer(() => {
    const approvalId = `apr_${randomBytes(12).toString('hex')}`;
    const timedOut: ApprovalAnswer = {
      approvalId,
      choice: 'deny',
      reason: `timed out: nobody answered within ${timeoutMs} ms (RXGATE_APPROVAL_TIMEOUT_MS)`,
      by: 'timeout',
    };
    const answer$ = race(
      answers$.pipe(first((answer) => answer.approvalId === approvalId)),
      gate.approvedAlways
        .answerFor$(tool.name)
        .pipe(map((always): ApprovalAnswer => ({ ...always, approvalId, reason: `"always" was answered to ${always.approvalId}` }))),
      timer(timeoutMs, scheduler).pipe(map(() => timedOut)),
    );
    return concat(of(approvalRequired(tool, call, approvalId, scheduler.now() + timeoutMs)), answer$.pipe(switchMap(decide$)));
  });
}
