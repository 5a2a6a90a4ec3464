import type { RequestHandler } from 'express';
import type { Metrics } from '../../metrics/createMetrics.js';
import type { BudgetLedger } from '../../money/BudgetLedger.js';
import { localsOf } from '../../serving/requestLocals.js';
import type { KeyLimits, ReleaseSlot } from '../../store/KeyLimits.js';
import { admitRequest, admitRun, takeRunSlot } from './admitRun.js';

/** The routes that run the agent: each holds one of its key's stream slots while it answers. */
const AGENT_ROUTES = new Set(['/chat/completions', '/responses', '/runs']);
/** `POST /api/jobs/{id}/run` starts a run too, and holds a slot as `POST /v1/runs` does; its model is the job's, checked when it was set. */
const RUN_JOB_NOW = /^\/api\/jobs\/[^/]+\/run$/;

/** A path as the router matches it: Express's routes take any case and a trailing slash, so the policy must as well. */
const routed = (path: string): string => path.toLowerCase().replace(/\/+$/, '');

/**
 * The request's key's policy, after authentication and the JSON body: its `rpm` (429
 * `rate_limit_exceeded` with `Retry-After`), on the agent routes its `models` (404
 * `model_not_found`, for the request's model or, without one, the default), its budget (429
 * `budget_exceeded` once it is spent) and its `maxStreams`
 * (429 while that many are in flight, detached runs included, a job's run started by hand too; a
 * scheduled one takes its slot in `fireJob`).
 */
export function enforceKeyPolicy(limits: KeyLimits, metrics: Metrics, budgets: BudgetLedger, defaultModel: string): RequestHandler {
  return async (req, res, next) => {
    const locals = localsOf(res);
    await admitRequest(limits, metrics, locals.principal);
    if (req.method !== 'POST') return next();
    let release: ReleaseSlot;
    if (AGENT_ROUTES.has(routed(req.path))) {
      const asked = (req.body as { model?: unknown } | undefined)?.model;
      release = await admitRun(limits, metrics, budgets, locals.principal, typeof asked === 'string' ? asked : defaultModel);
    } else if (RUN_JOB_NOW.test(routed(`${req.baseUrl}${req.path}`))) release = await takeRunSlot(limits, metrics, locals.principal);
    else return next();
    let kept: Promise<void> | undefined;
    locals.keepSlotUntil = (ended) => (kept = ended);
    res.once('close', () => {
      if (kept) void kept.then(release, release);
      else release();
    });
    next();
  };
}
