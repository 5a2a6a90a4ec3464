import type { Schedule } from './parseSchedule.js';

/**
 * The schedule's first slot strictly after `after` (Unix ms), or undefined when there is none
 * (a one-time schedule that has passed). Duration slots are `anchor` plus whole durations: elapsed
 * time, the same in every zone. Cron and ISO slots are croner's, in the job's zone.
 */
export function nextSlot(schedule: Schedule, anchor: number, after: number): number | undefined {
  if (schedule.kind === 'every') return anchor + Math.max(1, Math.floor((after - anchor) / schedule.ms) + 1) * schedule.ms;
  return schedule.cron.nextRun(new Date(after))?.getTime();
}
