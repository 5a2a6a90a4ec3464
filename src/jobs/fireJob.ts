import { isUnfinished, currentRun } from '../runs/currentRun.js';
import type { RunsContext } from '../runs/runsContext.js';
import type { JobSlot } from './scheduleJobs.js';
import { startJobRun } from './startJobRun.js';

/** The job's latest run if it is still going. */
async function runStillGoing(context: RunsContext, jobId: string): Promise<string | undefined> {
  const latest = (await context.store.jobs.fires(jobId)).find((fire) => fire.run_id !== null)?.run_id;
  if (!latest) return undefined;
  const run = await currentRun(context, latest).catch(() => undefined);
  return run && isUnfinished(run) ? latest : undefined;
}

/**
 * Fires a slot that has come, if this instance is the one that claims it in the store: the job
 * read again (one paused or deleted since fires no more), then skipped and recorded as such if its
 * previous run is still going, else its run started. A run that cannot start (the cap) is recorded
 * as skipped with the reason.
 */
export async function fireJob(context: RunsContext, { job, slot, trigger }: JobSlot, now: () => number): Promise<void> {
  const current = await context.store.jobs.get(job.id);
  if (!current?.enabled || !(await context.store.jobs.claim(job.id, slot))) return;
  const fire = { slot, trigger, fired_at: now() };
  const going = await runStillGoing(context, job.id);
  if (going) {
    await context.store.jobs.record(job.id, { ...fire, run_id: null, skipped: `the previous run ${going} is still going` });
    return;
  }
  await startJobRun(context, current, fire).catch((error: Error) =>
    context.store.jobs.record(job.id, { ...fire, run_id: null, skipped: `the run could not start: ${error.message}` }),
  );
}
