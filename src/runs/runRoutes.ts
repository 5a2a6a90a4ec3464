import { parseEventCursor } from '../detached/parseEventCursor.js';
import { serveLoggedEvents } from '../detached/serveLoggedEvents.js';
import { UNTIL_TERMINAL } from '../detached/followEvents.js';
import { stopDetached } from '../detached/stopDetached.js';
import { claimIdempotencyKey } from '../serving/claimIdempotencyKey.js';
import { idempotencyKeyInUse, readIdempotencyKey } from '../serving/readIdempotencyKey.js';
import { linkToSpan } from '../tracing/linkToSpan.js';
import { localsOf } from '../serving/requestLocals.js';
import type { RouteHandler } from '../serving/routeHandler.js';
import { assertRunOwner } from './assertRunOwner.js';
import { currentRun, isUnfinished, runNotRunning } from './currentRun.js';
import { TERMINAL_RUN_EVENTS } from './runEvent.js';
import type { RunObject } from './runObject.js';
import { parseRunRequest } from './runRequest.js';
import type { RunsContext } from './runsContext.js';
import { newRunId, startRun } from './startRun.js';

const isTerminal = ({ type }: { readonly type: string }) => TERMINAL_RUN_EVENTS.has(type);

export const idOf = (params: Record<string, string | string[]>): string => String(params.id);

/**
 * `POST /v1/runs`: 202 with the run's id at once; the run goes on detached, holding the conversation
 * it continues until it ends. With an `Idempotency-Key` the key's owner used before for the same
 * request, the run it started, and `Idempotency-Replayed: true`; used for another request, 422.
 */
export const createRunRoute =
  (context: RunsContext): RouteHandler =>
  async (req, res) => {
    const locals = localsOf(res);
    const request = parseRunRequest(req.body);
    const key = readIdempotencyKey(req);
    // Pending until the run has started: a duplicate meanwhile must not answer with a run that may never be made.
    const { id, replayed, pending } = await claimIdempotencyKey(req, newRunId(), {
      idempotency: context.store.idempotency,
      owner: locals.principal.id,
      ttlMs: context.idempotencyTtlMs,
      pending: true,
    });
    if (pending && replayed) throw idempotencyKeyInUse('has not started its run yet (it is starting, or it is being refused)');
    if (replayed) {
      const stored = await context.store.runs.get<RunObject>(id);
      res
        .set('Idempotency-Replayed', 'true')
        .status(202)
        .json({ run_id: id, status: stored?.status ?? 'queued' });
      return;
    }
    // A request refused before its run started (the conversation, the cap) keeps no key: the retry runs.
    const refused = async (error: unknown): Promise<never> => {
      if (key !== undefined) await context.store.idempotency.release(locals.principal.id, key, id).catch(() => undefined);
      throw error;
    };
    const held = request.conversation
      ? await context.openConversation({ id: request.conversation, principal: locals.principal, truncate: request.truncate }).catch(refused)
      : undefined;
    const run = await startRun(request, context, {
      owner: locals.principal.id,
      budget: locals.principal.policy?.budget,
      id,
      trace: locals.trace,
      conversation: held,
    }).catch(async (error: unknown) => {
      await held?.release();
      return refused(error);
    });
    if (key !== undefined) {
      // A settle the store refused leaves the record pending: duplicates are told to retry, never a run that is not there.
      await context.store.idempotency
        .settle(locals.principal.id, key, id)
        .catch((error: unknown) => locals.logger.warn({ err: error, runId: id }, 'could not settle the Idempotency-Key of a started run'));
    }
    locals.keepSlotUntil?.(run.ended);
    res.status(202).json({ run_id: run.id, status: run.snapshot().status });
  };

/** `GET /v1/runs/{id}`. */
export const retrieveRunRoute =
  (context: RunsContext): RouteHandler =>
  async (req, res) => {
    const id = idOf(req.params);
    await assertRunOwner(context, id, localsOf(res).principal);
    res.json(await currentRun(context, id));
  };

/** `GET /v1/runs/{id}/events`: every event after `Last-Event-ID` (or `?after=`), then the live ones; leaving does not stop the run. */
export const runEventsRoute =
  (context: RunsContext): RouteHandler =>
  async (req, res) => {
    const id = idOf(req.params);
    await assertRunOwner(context, id, localsOf(res).principal);
    const run = await currentRun(context, id);
    const { trace } = localsOf(res);
    if (trace && run.trace_id && run.span_id) linkToSpan(trace, run.trace_id, run.span_id);
    const header = req.get('last-event-id');
    const after = header !== undefined ? parseEventCursor(header, 'Last-Event-ID') : parseEventCursor(req.query.after, 'after');
    const ended = context.detached.get(id, 'run')?.ended ?? (isUnfinished(run) ? UNTIL_TERMINAL : undefined);
    return serveLoggedEvents(req, res, { id, after, ended, isTerminal }, context);
  };

/**
 * `POST /v1/runs/{id}/stop`: interrupts a running run with `Stop requested via API`, on whichever
 * instance runs it; it ends `cancelled`, and the answer is the run after the stop (`stopping` if
 * its owner has not ended it in time). A finished run is a 409.
 */
export const stopRunRoute =
  (context: RunsContext): RouteHandler =>
  async (req, res) => {
    const id = idOf(req.params);
    await assertRunOwner(context, id, localsOf(res).principal);
    const run = await currentRun(context, id);
    if (!context.detached.get(id, 'run') && !isUnfinished(run)) throw runNotRunning(run, 'only a running run can be stopped');
    const isSettled = async () => {
      const stored = await context.store.runs.get<RunObject>(id);
      return stored === undefined || !isUnfinished(stored);
    };
    await stopDetached(context, id, 'run', { isTerminal, isSettled });
    res.json(await currentRun(context, id));
  };
