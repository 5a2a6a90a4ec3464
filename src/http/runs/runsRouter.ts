import { Router, type RequestHandler } from 'express';
import { InterruptReason } from '../../agent/interruptReason.js';
import { replayEvents } from '../../detached/replayEvents.js';
import { RequestError } from '../../errors/RequestError.js';
import type { RunObject } from '../../protocol/runs/runObject.js';
import { parseEventCursor } from '../parseEventCursor.js';
import { streamLoggedEvents } from '../streamLoggedEvents.js';
import { parseRunRequest } from './runRequest.js';
import type { RunsContext } from './runsContext.js';
import { startRun } from './startRun.js';

function currentRun(context: RunsContext, id: string): RunObject {
  const run = context.liveRuns.get(id)?.() ?? context.store.runs.get(id);
  if (!run) throw new RequestError(404, `run '${id}' not found`, 'not_found_error', null, 'run_not_found');
  return run;
}

const idOf = (params: Record<string, string | string[]>): string => String(params.id);

const createRunRoute =
  (context: RunsContext): RequestHandler =>
  (req, res) => {
    const run = startRun(parseRunRequest(req.body), context);
    res.status(202).json({ run_id: run.id, status: context.liveRuns.get(run.id)?.().status ?? run.status });
  };

const retrieveRunRoute =
  (context: RunsContext): RequestHandler =>
  (req, res) => {
    res.json(currentRun(context, idOf(req.params)));
  };

/** Every event after `Last-Event-ID` (or `?after=`), then the live ones; leaving does not stop the run. */
const runEventsRoute =
  (context: RunsContext): RequestHandler =>
  async (req, res) => {
    const id = idOf(req.params);
    currentRun(context, id);
    const header = req.get('last-event-id');
    const after = header !== undefined ? parseEventCursor(header, 'Last-Event-ID') : parseEventCursor(req.query.after, 'after');
    await streamLoggedEvents(res, replayEvents(context.store.events, context.detached, id, after), context);
  };

/** Interrupts a running run with `Stop requested via API`; it ends `cancelled`. A finished run is a 409. */
const stopRunRoute =
  (context: RunsContext): RequestHandler =>
  async (req, res) => {
    const id = idOf(req.params);
    const run = currentRun(context, id);
    const live = context.detached.get(id);
    if (!live) {
      throw new RequestError(
        409,
        `run '${id}' has already finished (status ${run.status}); only a running run can be stopped`,
        'invalid_request_error',
        null,
        'run_not_running',
      );
    }
    await live.stop(InterruptReason.stopRequested);
    res.json(currentRun(context, id));
  };

/** The Runs API: `POST /runs`, `GET /runs/{id}`, `GET /runs/{id}/events`, `POST /runs/{id}/stop`. */
export function runsRouter(context: Omit<RunsContext, 'liveRuns'>): Router {
  const full: RunsContext = { ...context, liveRuns: new Map() };
  const router = Router();
  router.post('/runs', createRunRoute(full));
  router.get('/runs/:id', retrieveRunRoute(full));
  router.get('/runs/:id/events', runEventsRoute(full));
  router.post('/runs/:id/stop', stopRunRoute(full));
  return router;
}
