import type { Usage } from '../agent/agentEvent.js';
import type { ApprovalChoice, ApprovalResolver } from '../agent/approval.js';
import { usageCost, type UsageCost } from '../agent/usageCost.js';

export interface RunUsage extends UsageCost {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly total_tokens: number;
}

export interface RunError {
  readonly message: string;
  readonly type: string;
  readonly code: string | null;
}

/** What `GET /v1/runs/{id}/events` streams; the SSE event name is the `type`. */
export type RunEvent =
  | { readonly type: 'message.delta'; readonly delta: string }
  /** The model declining to answer, apart from the answer (in `refusal`, not `output`). */
  | { readonly type: 'refusal.delta'; readonly delta: string }
  /** The model's reasoning, apart from the answer (not in `output`). */
  | { readonly type: 'reasoning.delta'; readonly delta: string }
  | { readonly type: 'tool.started'; readonly call_id: string; readonly name: string; readonly arguments: string }
  | {
      readonly type: 'tool.progress';
      readonly call_id: string;
      readonly name: string;
      readonly progress: number;
      readonly total?: number;
      readonly message?: string;
    }
  | {
      readonly type: 'tool.completed';
      readonly call_id: string;
      readonly name: string;
      readonly result?: string;
      readonly error?: string;
      readonly duration_ms: number;
    }
  | {
      readonly type: 'approval.required';
      readonly approval_id: string;
      readonly call_id: string;
      readonly tool: string;
      readonly arguments: string;
      /** Unix seconds: when the call is denied for want of an answer. */
      readonly expires_at: number;
    }
  | {
      readonly type: 'approval.resolved';
      readonly approval_id: string;
      readonly call_id: string;
      readonly tool: string;
      readonly choice: ApprovalChoice;
      readonly reason?: string;
      /** `api` (a person answered) or `timeout`. */
      readonly resolved_by: ApprovalResolver;
      /** The `X-Request-Id` of the answer, when a person answered. */
      readonly request_id?: string;
      /** Unix seconds. */
      readonly resolved_at: number;
    }
  | { readonly type: 'run.steered'; readonly input: string }
  /** Before the first content of each model call: the upstream that answered it, the model it knows it by, and the route (the run's model, or a fallback of it). */
  | { readonly type: 'run.upstream'; readonly upstream: string; readonly model: string; readonly route: string }
  | { readonly type: 'run.completed'; readonly output: string; readonly refusal: string | null; readonly usage: RunUsage }
  | { readonly type: 'run.failed'; readonly error: RunError }
  | { readonly type: 'run.cancelled'; readonly reason: string };

/** The events that end a run's log. */
export const TERMINAL_RUN_EVENTS: ReadonlySet<string> = new Set(['run.completed', 'run.failed', 'run.cancelled']);

export function toRunUsage(usage: Usage): RunUsage {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens,
    ...usageCost(usage),
  };
}
