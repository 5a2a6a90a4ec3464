import { currentRun } from '../runs/currentRun.js';
import type { RunsContext } from '../runs/runsContext.js';
import type { JobFire, StoredJob } from '../store/JobStore.js';
import type { JobObject, JobRunObject } from './jobObject.js';
import { nextSlot } from './nextSlot.js';
import { parseSchedule } from './parseSchedule.js';

const seconds = (ms: number) => Math.floor(ms / 1000);

/** A run's status now; `unknown` once retention has evicted it. */
const statusOf = (context: RunsContext, runId: string): Promise<string> =>
  currentRun(context, runId).then(
    (run) => run.status,
    () => 'unknown',
  );

/** A fire as the API lists it, with its run's status now. */
export async function showFire(context: RunsContext, fire: JobFire): Promise<JobRunObject> {
  return {
    object: 'job.run',
    scheduled_for: seconds(fire.slot),
    fired_at: seconds(fire.fired_at),
    trigger: fire.trigger,
    run_id: fire.run_id,
    status: fire.run_id === null ? 'skipped' : await statusOf(context, fire.run_id),
    skipped_reason: fire.skipped,
  };
}

/** A stored job as the API shows it: its next slot after `now` (and after its last claimed one), its last fire and last run. */
export async function showJob(context: RunsContext, job: StoredJob, now: number): Promise<JobObject> {
  const fires = await context.store.jobs.fires(job.id);
  const last = fires[0];
  const next = job.enabled
    ? nextSlot(parseSchedule(job.schedule, job.timezone), job.anchor, Math.max(now, job.last_slot ?? now))
    : undefined;
  const shown = last ? await showFire(context, last) : undefined;
  return {
    id: job.id,
    object: 'job',
    name: job.name,
    schedule: job.schedule,
    timezone: job.timezone,
    enabled: job.enabled,
    input: job.input,
    instructions: job.instructions ?? null,
    model: job.model ?? null,
    created_at: seconds(job.created_at),
    next_run_at: next === undefined ? null : seconds(next),
    last_run_at: shown?.fired_at ?? null,
    // A skipped fire has no run: the last run is the one that made it skip.
    last_run_id: fires.find((fire) => fire.run_id !== null)?.run_id ?? null,
    last_status: shown?.status ?? null,
  };
}
