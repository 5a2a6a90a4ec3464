import { RequestError } from '../errors/RequestError.js';
import type { RunObject } from './runObject.js';
import { runNotFound } from './runNotFound.js';
import type { RunsContext } from './runsContext.js';
import { runFromLog } from './runFromLog.js';
import { shownRun } from './shownRun.js';

/** Whether a run (as stored) has not ended yet. */
export const isUnfinished = ({ status }: RunObject): boolean =>
  status === 'queued' || status === 'running' || status === 'waiting_for_approval' || status === 'stopping';

/**
 * The run as it stands: live here, or as stored once it has ended; one running on another instance
 * as its log tells it (see `runFromLog`). 404 `run_not_found`.
 */
export async function currentRun(context: RunsContext, id: string): Promise<RunObject> {
  const live = context.detached.snapshot<RunObject>(id, 'run');
  if (live) return live;
  const run = await context.store.runs.get<RunObject>(id);
  if (!run) throw runNotFound(id);
  return isUnfinished(run) ? runFromLog(context, run) : shownRun(run);
}

/** 409 `run_not_running`: `what` cannot be done to a run that has ended. */
export function runNotRunning(run: RunObject, what: string): RequestError {
  return new RequestError(
    409,
    `run '${run.id}' has already finished (status ${run.status}); ${what}`,
    'invalid_request_error',
    null,
    'run_not_running',
  );
}
