import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import { modelNotFound } from '../errors/modelNotFound.js';
import { RequestError } from '../errors/RequestError.js';
import type { RouteHandler } from '../serving/routeHandler.js';
import { localsOf } from '../serving/requestLocals.js';
import { mayAccess, mayUseModel, type Principal } from '../principal.js';
import { idOf } from '../runs/runRoutes.js';
import type { StoredJob } from '../store/JobStore.js';
import { parseJobRequest, type JobSettings } from './jobRequest.js';
import { budgetRefusal } from '../money/budgetRefusal.js';
import type { JobsContext } from './jobsContext.js';
import { showFire, showJob } from './showJob.js';
import { startJobRun } from './startJobRun.js';

/** The job, if it exists and the request's principal may see it; else the same 404 either way. */
async function jobOf(context: JobsContext, id: string, res: Response): Promise<StoredJob> {
  const job = await context.store.jobs.get(id);
  if (!job || !mayAccess(localsOf(res).principal, job.owner))
    throw new RequestError(404, `job '${id}' not found`, 'not_found_error', null, 'job_not_found');
  return job;
}

/** A job's fires run as its key: the model they ask for (or, without one, the default) must be one the key may use, as on `POST /v1/runs`. */
function assertMayUseModel(context: JobsContext, principal: Principal, { model = context.defaultModel }: JobSettings): void {
  if (!mayUseModel(principal, model)) throw modelNotFound(model);
}

/** Saves `job` and tells the scheduler; answers the job as it now stands. */
async function saveJob(context: JobsContext, job: StoredJob, res: Response, status = 200): Promise<void> {
  await context.store.jobs.save(job);
  context.jobScheduler.saved(job);
  res.status(status).json(await showJob(context, job, Date.now()));
}

/** `GET /api/jobs`: the jobs the principal may see, oldest first. */
export const listJobsRoute =
  (context: JobsContext): RouteHandler =>
  async (_req, res) => {
    const { principal } = localsOf(res);
    const jobs = (await context.store.jobs.list()).filter((job) => mayAccess(principal, job.owner));
    const now = Date.now();
    res.json({ object: 'list', data: await Promise.all(jobs.map((job) => showJob(context, job, now))) });
  };

/** `POST /api/jobs`: 201 with the job; it belongs to the principal, and its fires run as it. */
export const createJobRoute =
  (context: JobsContext): RouteHandler =>
  async (req, res) => {
    const now = Date.now();
    const settings = parseJobRequest(req.body, now);
    assertMayUseModel(context, localsOf(res).principal, settings);
    const id = `job_${randomUUID().replaceAll('-', '')}`;
    const job = { ...settings, id, owner: localsOf(res).principal.id, created_at: now, anchor: now, owed_from: now, last_slot: null };
    await saveJob(context, job, res, 201);
  };

/** `GET /api/jobs/{id}`. */
export const retrieveJobRoute =
  (context: JobsContext): RouteHandler =>
  async (req, res) => {
    res.json(await showJob(context, await jobOf(context, idOf(req.params), res), Date.now()));
  };

/** `PATCH /api/jobs/{id}`: a new schedule or zone counts its slots from now; a job enabled again owes nothing for the pause. */
export const updateJobRoute =
  (context: JobsContext): RouteHandler =>
  async (req, res) => {
    const current = await jobOf(context, idOf(req.params), res);
    const now = Date.now();
    const settings = parseJobRequest(req.body, now, current);
    assertMayUseModel(context, localsOf(res).principal, settings);
    const rescheduled = settings.schedule !== current.schedule || settings.timezone !== current.timezone;
    const owed = rescheduled || (settings.enabled && !current.enabled);
    await saveJob(
      context,
      { ...current, ...settings, anchor: rescheduled ? now : current.anchor, owed_from: owed ? now : current.owed_from },
      res,
    );
  };

/** `DELETE /api/jobs/{id}`: it fires no more; a run it started goes on. */
export const deleteJobRoute =
  (context: JobsContext): RouteHandler =>
  async (req, res) => {
    const { id } = await jobOf(context, idOf(req.params), res);
    await context.store.jobs.delete(id);
    context.jobScheduler.deleted(id);
    res.json({ id, object: 'job.deleted', deleted: true });
  };

/** `POST /api/jobs/{id}/pause` and `/resume`: resumed, it fires at its next slot, none owed for the pause. */
export const setEnabledRoute =
  (context: JobsContext, enabled: boolean): RouteHandler =>
  async (req, res) => {
    const current = await jobOf(context, idOf(req.params), res);
    const resumed = enabled && !current.enabled;
    await saveJob(context, { ...current, enabled, owed_from: resumed ? Date.now() : current.owed_from }, res);
  };

/** `POST /api/jobs/{id}/run`: fires it now, paused or not, besides its schedule: 202 with the run's id. */
export const runJobNowRoute =
  (context: JobsContext): RouteHandler =>
  async (req, res) => {
    const job = await jobOf(context, idOf(req.params), res);
    // The key's policy as it is now: it may have been narrowed since the job was made.
    assertMayUseModel(context, localsOf(res).principal, job);
    const now = Date.now();
    const owner = context.ownerKey(job.owner);
    const spent = owner && (await budgetRefusal(context.store.budgets, owner, Date.now()));
    if (spent) throw spent;
    const run = await startJobRun(context, job, owner?.policy?.budget);
    localsOf(res).keepSlotUntil?.(run.ended);
    await context.store.jobs.record(job.id, { slot: now, trigger: 'manual', fired_at: now, run_id: run.id, skipped: null });
    res.status(202).json({ run_id: run.id, job_id: job.id, status: run.snapshot().status });
  };

/** `GET /api/jobs/{id}/runs`: its fires, newest first (the last 100), each with its run's status or why it was skipped. */
export const jobRunsRoute =
  (context: JobsContext): RouteHandler =>
  async (req, res) => {
    const { id } = await jobOf(context, idOf(req.params), res);
    const fires = await context.store.jobs.fires(id);
    res.json({ object: 'list', data: await Promise.all(fires.map((fire) => showFire(context, fire))) });
  };
