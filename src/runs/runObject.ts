import type { RunError, RunUsage } from './runEvent.js';

// `stopping`: a stop was requested on another instance than the run's, which has not ended it yet.
export type RunStatus = 'queued' | 'running' | 'stopping' | 'completed' | 'failed' | 'cancelled';

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
  readonly usage: RunUsage | null;
  readonly error: RunError | null;
}
