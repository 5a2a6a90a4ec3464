import { RequestError } from '../errors/RequestError.js';
import type { RunObject } from './runObject.js';
import { runNotFound } from './runNotFound.js';
import type { RunsContext } from './runsContext.js';
import { shownRun } from './shownRun.js';
import { storedOutput } from './storedOutput.js';

/** Whether a run (as stored) has not ended yet. */
export const isUnfinished = ({ status }: RunObject): boolean =>
  status === 'queued' || status === 'running' || status === 'waiting_for_approval' || status === 'stopping';

/**
 * The run as it stands: live here, or as stored; one running on another instance with the output
 * its log holds so far, `stopping` while a stop requested of it is pending. 404 `run_not_found`.
 */
export async function currentRun(context: RunsContext, id: string): Promise<RunObject> {
  const live = context.detached.snapshot<RunObject>(id, 'run');
  if (live) return live;
  const run = await context.store.runs.get<RunObject>(id);
  if (!run) throw runNotFound(id);
  if (!isUnfinished(run)) return shownRun(run);
  const stopping = await context.detached.coordinator.stopRequested(id);
  const shown = shownRun({ ...run, ...(await storedOutput(context.store.events, id)) });
  return stopping ? { ...shown, status: 'stopping' } : shown;
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
