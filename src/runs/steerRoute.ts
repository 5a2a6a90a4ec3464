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
 * it. 409 if the run has ended.
 */
export const steerRoute =
  (context: RunsContext): RouteHandler =>
  async (req, res) => {
    const input = parseSteerRequest(req.body);
    const id = idOf(req.params);
    await assertRunOwner(context, id, localsOf(res).principal);
    // A run that is ending here takes no more steers: it is answered as the finished run it is about to be.
    const taken = context.detached.get<RunObject>(id, 'run')?.inputs?.steer(input) ?? false;
    if (!taken) {
      const run = await currentRun(context, id);
      if (!isUnfinished(run)) throw runNotRunning(run, 'it can no longer be steered');
      await context.detached.coordinator.sendInput(id, { type: 'steer', input });
    }
    res.status(202).json({ object: 'run.steer', run_id: id, input, status: 'queued' });
  };
