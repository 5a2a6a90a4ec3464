import { defer, EMPTY, expand, first, map, of, repeat, timer, type Observable, type SchedulerLike } from 'rxjs';
import type { StoredJob } from '../store/JobStore.js';
import { lastSlot } from './lastSlot.js';
import { nextSlot } from './nextSlot.js';
import type { Schedule } from './parseSchedule.js';

/** A slot that has come: Unix ms, and whether it came on time or late, after a gap. */
export interface DueSlot {
  readonly slot: number;
  readonly trigger: 'schedule' | 'catch_up';
}

export interface SlotTiming {
  /** Unix ms now; the scheduler's own clock in marble specs. */
  readonly clock: () => number;
  readonly scheduler: SchedulerLike;
  /** `RXGATE_JOBS_GRACE_MS`: how late a missed slot may still fire. */
  readonly graceMs: number;
}

// setTimeout fires at once past 2^31 - 1 ms: a longer wait is taken in steps.
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * The slots of one job as they come. On subscription, the latest slot it missed (later than its
 * last claimed slot and than `owed_from`) fires at once if it is at most `graceMs` old: once, however
 * many were missed. Then each next slot at its time, counted from the clock, so a stalled process
 * skips slots rather than firing them in a burst.
 *
 * ```
 * every 1m, last claimed slot 0, subscribed at 0:     1m a 59999ms b ...
 * every 1m, slot 0 unclaimed, subscribed at 30s:      c 29999ms a ...    (c: slot 0, caught up)
 * ```
 */
export function jobSlots$(job: StoredJob, schedule: Schedule, { clock, scheduler, graceMs }: SlotTiming): Observable<DueSlot> {
  const at$ = (slot: number): Observable<DueSlot> =>
    defer(() => timer(Math.min(Math.max(0, slot - clock()), LONGEST_TIMER_MS), scheduler)).pipe(
      repeat(),
      first(() => clock() >= slot),
      map(() => ({ slot, trigger: 'schedule' as const })),
    );
  const after$ = (after: number): Observable<DueSlot> => {
    const slot = nextSlot(schedule, job.anchor, after);
    return slot === undefined ? EMPTY : at$(slot);
  };
  return defer(() => {
    const now = clock();
    const missed = lastSlot(schedule, job.anchor, now);
    const owed = missed !== undefined && missed > Math.max(job.last_slot ?? -Infinity, job.owed_from) && now - missed <= graceMs;
    return owed ? of<DueSlot>({ slot: missed, trigger: 'catch_up' }) : after$(now);
  }).pipe(expand(({ slot }) => after$(Math.max(slot, clock()))));
}
