import type { RunError, RunUsage } from './runEvent.js';

export type RunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

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
