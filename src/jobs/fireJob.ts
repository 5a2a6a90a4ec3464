import { budgetRefusal } from '../money/budgetRefusal.js';
import { mayUseModel, type Principal } from '../principal.js';
import { isUnfinished, currentRun } from '../runs/currentRun.js';
import type { RunsContext } from '../runs/runsContext.js';
import type { StoredJob } from '../store/JobStore.js';
import type { ReleaseSlot } from '../store/KeyLimits.js';
import type { JobSlot } from './scheduleJobs.js';
import { startJobRun } from './startJobRun.js';

/** The job's latest run if it is still going. */
async function runStillGoing(context: RunsContext, jobId: string): Promise<string | undefined> {
  const latest = (await context.store.jobs.fires(jobId)).find((fire) => fire.run_id !== null)?.run_id;
  if (!latest) return undefined;
  const run = await currentRun(context, latest).catch(() => undefined);
  return run && isUnfinished(run) ? latest : undefined;
}

/** The principal a job's owner is now: undefined once its key is revoked or expired. */
export type OwnerKey = (owner: string) => Principal | undefined;

/** One of the `maxStreams` slots of a job's owner's key, for its run, or undefined when all are taken. */
export type OwnerSlot = (owner: Principal) => Promise<ReleaseSlot | undefined>;

/** Why a fire of `job` may not run as `principal`, its owner now, if it may not: a model its policy no longer allows. */
function refusedByOwner(context: RunsContext, job: StoredJob, principal: Principal): string | undefined {
  const model = job.model ?? context.defaultModel;
  return mayUseModel(principal, model) ? undefined : `its owner's key '${job.owner}' may not use the model '${model}'`;
}

/** Why a fire found no `maxStreams` slot of its owner's key free. */
const atStreamLimit = ({ id, policy }: Principal): string =>
  `its owner's key '${id}' is at its maxStreams limit (${policy?.maxStreams} ${policy?.maxStreams === 1 ? 'stream' : 'streams'})`;

/**
 * Fires a slot that has come, if this instance is the one that claims it in the store: the job
 * read again (one paused or deleted since fires no more), then skipped and recorded as such if its
 * owner's key (as `ownerKey` says now) may no longer run it, its previous run is still going, or
 * that key has no `maxStreams` slot free (`ownerSlot`), else its run started, holding the slot
 * until it ends. A run that cannot start (the cap) is recorded as skipped with the reason.
 */
export async function fireJob(
  context: RunsContext,
  { job, slot, trigger }: JobSlot,
  now: () => number,
  ownerKey: OwnerKey,
  ownerSlot: OwnerSlot,
): Promise<void> {
  const current = await context.store.jobs.get(job.id);
  if (!current?.enabled || !(await context.store.jobs.claim(job.id, slot))) return;
  const fire = { slot, trigger, fired_at: now() };
  const skip = (skipped: string) => context.store.jobs.record(job.id, { ...fire, run_id: null, skipped });
  const owner = ownerKey(current.owner);
  if (!owner) return skip(`its owner '${current.owner}' has no key in force (revoked or expired)`);
  const refused = refusedByOwner(context, current, owner);
  if (refused) return skip(refused);
  const spent = await budgetRefusal(context.store.budgets, owner, now());
  if (spent) return skip(spent.message);
  const going = await runStillGoing(context, job.id);
  if (going) return skip(`the previous run ${going} is still going`);
  const release = await ownerSlot(owner);
  if (!release) return skip(atStreamLimit(owner));
  // Only a run that did not start is a skip: a fire that cannot be kept after its run started is not recorded at all.
  const run = await startJobRun(context, current, owner.policy?.budget).catch((error: Error) => error);
  if (run instanceof Error) {
    release();
    return skip(`the run could not start: ${run.message}`);
  }
  void run.ended.then(release, release);
  await context.store.jobs.record(job.id, { ...fire, run_id: run.id, skipped: null });
}
