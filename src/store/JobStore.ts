/** A scheduled job as stored: what its owner set, and the instant its duration slots count from. */
export interface JobRecord {
  readonly id: string;
  /** The principal's id that made it; its fires run as this owner. */
  readonly owner: string;
  readonly name: string;
  readonly schedule: string;
  readonly timezone: string;
  readonly enabled: boolean;
  /** The run request its fires start: `input`, `instructions`, `model` as `POST /v1/runs` takes them. */
  readonly input: unknown;
  readonly instructions?: string | null;
  readonly model?: string;
  /** Unix ms. */
  readonly created_at: number;
  /** Unix ms from which a duration schedule's slots count (its creation, or the last change of its schedule). */
  readonly anchor: number;
  /** Unix ms from which a missed slot is owed a late fire (its creation, its last resume or change of schedule): never one it was paused through. */
  readonly owed_from: number;
}

/** A job as read back: the last slot that an instance claimed, if any. */
export interface StoredJob extends JobRecord {
  readonly last_slot: number | null;
}

/** One fire of a job, as `GET /api/jobs/{id}/runs` lists it. */
export interface JobFire {
  /** Unix ms of the slot it was for (of the request, for a run now). */
  readonly slot: number;
  readonly trigger: 'schedule' | 'catch_up' | 'manual';
  /** The run it started, or null when it was skipped. */
  readonly run_id: string | null;
  readonly skipped: string | null;
  /** Unix ms when it fired. */
  readonly fired_at: number;
}

/** How many fires of a job are kept, newest first. */
export const FIRES_KEPT = 100;

/** Scheduled jobs and their fires. */
export interface JobStore {
  /** Creates or replaces the job; its claimed slot is kept. */
  save(job: JobRecord): Promise<void>;
  get(id: string): Promise<StoredJob | undefined>;
  /** Every job, oldest first. */
  list(): Promise<StoredJob[]>;
  /** Whether it was there; its fires go with it. */
  delete(id: string): Promise<boolean>;
  /**
   * Claims `slot` for this caller, atomically across every instance sharing the store: true only
   * for the first claim of a slot later than any claimed before, and only while the job exists.
   */
  claim(id: string, slot: number): Promise<boolean>;
  /** Keeps a fire (the newest `FIRES_KEPT`), only while the job exists: one deleted since its slot was claimed keeps none. */
  record(id: string, fire: JobFire): Promise<void>;
  /** The job's fires, newest first. */
  fires(id: string): Promise<JobFire[]>;
}
