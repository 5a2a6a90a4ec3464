import type { AgentEventOf } from '../agent/agentEvent.js';
import type { RunEvent } from './runEvent.js';

export type ApprovalResolvedEvent = Extract<RunEvent, { type: 'approval.resolved' }>;

/** An agent's `approval_resolved` as the run's `approval.resolved` event: who answered, what, when (Unix seconds). */
export function toApprovalResolved(event: AgentEventOf<'approval_resolved'>): ApprovalResolvedEvent {
  const { approvalId, callId, name, choice, reason, by, requestId, at } = event;
  return {
    type: 'approval.resolved',
    approval_id: approvalId,
    call_id: callId,
    tool: name,
    choice,
    ...(reason === undefined ? {} : { reason }),
    resolved_by: by,
    ...(requestId === undefined ? {} : { request_id: requestId }),
    resolved_at: Math.floor(at / 1000),
  };
}
