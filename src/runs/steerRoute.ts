import { localsOf } from '../pipeline/requestLocals.js';
import type { RouteHandler } from '../pipeline/routeHandler.js';
import { assertRunOwner } from './assertRunOwner.js';
import { currentRun, isUnfinished, runNotRunning } from './currentRun.js';
import type { RunObject } from './runObject.js';
import { idOf } from './runRoutes.js';
import type { RunsContext } from './runsContext.js';
import { parseSteerRequest } from './steerRequest.js';

/**
 * `POST /v1/runs/{id}/steer`: `{"input": "..."}` queues a user message for the run's next model
 * call (on whichever instance runs it); 202 at once, and a `run.steered` event when the run takes
 * it. 409 if the run has ended, or is ending (its agent takes no more steers): then once it has.
 */
export const steerRoute =
  (context: RunsContext): RouteHandler =>
  async (req, res) => {
    const input = parseSteerRequest(req.body);
    const id = idOf(req.params);
    await assertRunOwner(context, id, localsOf(res).principal);
    const live = context.detached.get<RunObject>(id, 'run');
    if (!live?.inputs?.steer(input)) {
      // A run here that takes no more steers is ending: it is answered as the finished run it is about to be,
      // once its state says so (never through the coordinator, which would hand the steer back to it).
      if (live && isUnfinished(live.snapshot())) await live.ended;
      const run = await currentRun(context, id);
      if (!isUnfinished(run)) throw runNotRunning(run, 'it can no longer be steered');
      await context.detached.coordinator.sendInput(id, { type: 'steer', input });
    }
    res.status(202).json({ object: 'run.steer', run_id: id, input, status: 'queued' });
  };
