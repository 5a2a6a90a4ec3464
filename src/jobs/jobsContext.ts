import type { RunsContext } from '../runs/runsContext.js';
import type { OwnerKey } from './fireJob.js';
import type { JobScheduler } from './JobScheduler.js';

/** What the jobs API routes share: a job's fires are runs, and a change is news for the scheduler. */
export interface JobsContext extends RunsContext {
  readonly jobScheduler: JobScheduler;
  /** The principal a job's owner is now, whose budget its runs spend against. */
  readonly ownerKey: OwnerKey;
}
