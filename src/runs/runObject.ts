import type { RunError, RunUsage } from './runEvent.js';

// `stopping`: a stop was requested on another instance than the run's, which has not ended it yet.
// `waiting_for_approval`: running, with calls that wait for a person (stored as `running`, shown so).
export type RunStatus = 'queued' | 'running' | 'waiting_for_approval' | 'stopping' | 'completed' | 'failed' | 'cancelled';

/** A call that waits for a person's answer, as `GET /v1/runs/{id}` lists it. */
export interface PendingApproval {
  readonly approval_id: string;
  readonly call_id: string;
  readonly tool: string;
  readonly arguments: string;
  /** Unix seconds. */
  readonly expires_at: number;
}

/** What `GET /v1/runs/{id}` answers; times are Unix seconds. */
export interface RunObject {
  readonly id: string;
  readonly object: 'run';
  readonly status: RunStatus;
  readonly model: string;
  readonly created_at: number;
  readonly started_at: number | null;
  readonly completed_at: number | null;
  readonly output: string;
  /** What the model said declining to answer, apart from `output`; null if it did not. */
  readonly refusal: string | null;
  readonly usage: RunUsage | null;
  readonly error: RunError | null;
  /** The calls waiting for approval while it runs; empty once it has ended. */
  readonly pending_approvals: readonly PendingApproval[];
  /** The scheduled job that fired it; absent for a run started by `POST /v1/runs`. */
  readonly job_id?: string;
  /** With tracing on: the trace of the request that started it and that request's span, which a follower's request links to. */
  readonly trace_id?: string;
  readonly span_id?: string;
}
