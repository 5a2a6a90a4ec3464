import type { Budget } from '../budget.js';
import type { DetachedRun } from '../detached/DetachedRuns.js';
import type { RunObject } from '../runs/runObject.js';
import { parseRunRequest } from '../runs/runRequest.js';
import type { RunsContext } from '../runs/runsContext.js';
import { startRun } from '../runs/startRun.js';
import type { JobRecord } from '../store/JobStore.js';

/** Starts the job's run, an ordinary detached run that shows the job's id, spent against `budget`; the caller keeps the fire. */
export async function startJobRun(context: RunsContext, job: JobRecord, budget: Budget | undefined): Promise<DetachedRun<RunObject>> {
  const request = parseRunRequest({ input: job.input, instructions: job.instructions, model: job.model });
  return startRun({ ...request, jobId: job.id }, context, { owner: job.owner, budget });
}
