import { localsOf } from '../serving/requestLocals.js';
import type { RouteHandler } from '../serving/routeHandler.js';
import { assertRunOwner } from './assertRunOwner.js';
import { currentRun, isUnfinished, runNotRunning } from './currentRun.js';
import type { RunObject } from './runObject.js';
import { idOf } from './runRoutes.js';
import type { RunsContext } from './runsContext.js';
import { parseSteerRequest } from './steerRequest.js';

/** What the answer to a steer says of it: in the run's queue, or handed to its owner, which did not say in time whether it took it. */
type SteerStatus = 'queued' | 'sent';

const NOT_STEERABLE = 'it can no longer be steered';

/**
 * Steers a run on another instance: handed to its owner through the coordinator, which says
 * whether the run put it in its queue, or refused it (then once the run has ended: 409). `sent`
 * if the owner did not say within the coordinator's `stopWithinMs`.
 */
async function steerElsewhere(context: RunsContext, id: string, input: string): Promise<SteerStatus> {
  const { coordinator } = context.detached;
  const receipt = await coordinator.sendSteer(id, input, coordinator.stopWithinMs);
  if (receipt === 'refused') throw runNotRunning(await currentRun(context, id), NOT_STEERABLE);
  return receipt ?? 'sent';
}

/**
 * `POST /v1/runs/{id}/steer`: `{"input": "..."}` queues a user message for the run's next model
 * call, on whichever instance runs it: 202 `queued` once the run has it, and a `run.steered`
 * event when the run takes it. 409 if the run has ended, or is ending (its agent takes no more
 * steers): then once it has. A run on another instance answers through the coordinator; 202
 * `sent` if it did not answer within the coordinator's `stopWithinMs`: the steer may yet be taken,
 * or refused, and its `run.steered` event is the word on it.
 */
export const steerRoute =
  (context: RunsContext): RouteHandler =>
  async (req, res) => {
    const input = parseSteerRequest(req.body);
    const id = idOf(req.params);
    await assertRunOwner(context, id, localsOf(res).principal);
    const live = context.detached.get<RunObject>(id, 'run');
    let status: SteerStatus = 'queued';
    if (!live?.inputs?.steer(input)) {
      // A run here that takes no more steers is ending: it is answered as the finished run it is about to be,
      // once its state says so (never through the coordinator, which would hand the steer back to it).
      if (live && isUnfinished(live.snapshot())) await live.ended;
      const run = await currentRun(context, id);
      if (!isUnfinished(run)) throw runNotRunning(run, NOT_STEERABLE);
      status = await steerElsewhere(context, id, input);
    }
    res.status(202).json({ object: 'run.steer', run_id: id, input, status });
  };
