import { EMPTY, map, merge, switchMap, type OperatorFunction } from 'rxjs';
import type { StoredJob } from '../store/JobStore.js';
import { jobSlots$, type DueSlot, type SlotTiming } from './jobSlots.js';
import { parseSchedule } from './parseSchedule.js';

/** A job's slot that has come. */
export interface JobSlot extends DueSlot {
  readonly job: StoredJob;
}

const slotsOf$ = (job: StoredJob, timing: SlotTiming) => {
  try {
    return jobSlots$(job, parseSchedule(job.schedule, job.timezone), timing).pipe(map((due): JobSlot => ({ ...due, job })));
  } catch {
    // A stored schedule this runtime cannot read (a zone its time-zone data lacks) fires nowhere rather than stopping the others.
    return EMPTY;
  }
};

/**
 * The slots of every enabled job in the latest list, as they come. Each new list starts the timers
 * afresh: a job paused or deleted since has none, a resumed one has them again, and a slot that
 * came between two lists is caught up by `jobSlots$` if still owed.
 *
 * ```
 * jobs:      a 14999ms p 9999ms r            a: every 10s; p: paused; r: resumed at 25 s
 * expected:  10s 1 ------------- 30s 3 ...   no 20 s slot: it passed while paused
 * ```
 */
export function scheduleJobs(timing: SlotTiming): OperatorFunction<readonly StoredJob[], JobSlot> {
  return switchMap((jobs) => merge(...jobs.filter((job) => job.enabled).map((job) => slotsOf$(job, timing))));
}
