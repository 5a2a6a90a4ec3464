import { defer, EMPTY, filter, groupBy, map, mergeMap, switchMap, type OperatorFunction } from 'rxjs';
import type { StoredJob } from '../store/JobStore.js';
import { jobSlots$, type DueSlot, type SlotTiming } from './jobSlots.js';
import { parseSchedule } from './parseSchedule.js';
import { PlannedJobs, type JobsNews } from './PlannedJobs.js';

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
 * The slots of every enabled job, as they come, planned incrementally (`PlannedJobs`): a job keeps
 * its timers until news of it moves its slots (a new schedule, zone, pause, resume or removal), and
 * only then are they started afresh; a slot that came between is caught up by `jobSlots$` if still
 * owed. One group a job, so that the others' news never touches its timers.
 *
 * ```
 * news:      a 14999ms p 9999ms r            a: every 10s; p: paused; r: resumed at 25 s
 * expected:  10s 1 ------------- 30s 3 ...   no 20 s slot: it passed while paused
 * ```
 */
export function scheduleJobs(timing: SlotTiming): OperatorFunction<JobsNews, JobSlot> {
  return (news$) =>
    defer(() => {
      const planned = new PlannedJobs();
      return news$.pipe(
        mergeMap((news) => planned.changes(news)),
        // A job no longer planned closes its group: planned again, it starts a new one.
        groupBy(({ id }) => id, { duration: (changes$) => changes$.pipe(filter(({ job }) => job === undefined)) }),
        mergeMap((changes$) => changes$.pipe(switchMap(({ job }) => (job ? slotsOf$(job, timing) : EMPTY)))),
      );
    });
}
