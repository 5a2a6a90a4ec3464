/** What `GET /api/jobs/{id}` answers; times are Unix seconds. */
export interface JobObject {
  readonly id: string;
  readonly object: 'job';
  readonly name: string;
  readonly schedule: string;
  readonly timezone: string;
  readonly enabled: boolean;
  readonly input: unknown;
  readonly instructions: string | null;
  readonly model: string | null;
  readonly created_at: number;
  /** When it fires next; null while paused or once a one-time schedule has fired. */
  readonly next_run_at: number | null;
  readonly last_run_at: number | null;
  readonly last_run_id: string | null;
  /** The last run's status, or `skipped` when the last fire was skipped. */
  readonly last_status: string | null;
}

/** A fire as `GET /api/jobs/{id}/runs` lists it. */
export interface JobRunObject {
  readonly object: 'job.run';
  /** The slot it was for (when it was asked for, for a run now). */
  readonly scheduled_for: number;
  readonly fired_at: number;
  readonly trigger: 'schedule' | 'catch_up' | 'manual';
  readonly run_id: string | null;
  /** The run's status, or `skipped`. */
  readonly status: string;
  /** Why it was skipped. */
  readonly skipped_reason: string | null;
}
