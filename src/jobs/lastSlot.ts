import type { Schedule } from './parseSchedule.js';

/** The schedule's latest slot at or before `at` (Unix ms), or undefined when none has come yet. */
export function lastSlot(schedule: Schedule, anchor: number, at: number): number | undefined {
  if (schedule.kind === 'every') {
    const count = Math.floor((at - anchor) / schedule.ms);
    return count >= 1 ? anchor + count * schedule.ms : undefined;
  }
  // croner's previous runs are strictly before the reference: one millisecond on takes `at` itself.
  return schedule.cron.previousRuns(1, new Date(at + 1))[0]?.getTime();
}
