import { take } from 'rxjs';
import { describe, it } from 'vitest';
import { jobSlots$ } from '../../src/jobs/jobSlots.js';
import { parseSchedule } from '../../src/jobs/parseSchedule.js';
import type { StoredJob } from '../../src/store/JobStore.js';
import { marbles } from '../support/marbles.js';

// Saturday 2026-03-07 09:00 in New York (EST); the clocks go forward on Sunday at 02:00.
const BASE = Date.parse('2026-03-07T14:00:00Z');
const MINUTE = 60_000;

const job = (schedule: string, timezone: string, fields: Partial<StoredJob> = {}): StoredJob => ({
  id: 'job_1',
  owner: 'default',
  name: 'summary',
  schedule,
  timezone,
  enabled: true,
  input: 'summarise',
  created_at: BASE,
  anchor: BASE,
  owed_from: BASE,
  last_slot: null,
  ...fields,
});

const slotsOf$ = (m: { scheduler: { now(): number } }, one: StoredJob, graceMs = MINUTE) =>
  jobSlots$(one, parseSchedule(one.schedule, one.timezone), { clock: () => BASE + m.scheduler.now(), scheduler: m.scheduler as never, graceMs });

describe('jobSlots$', () => {
  it('keeps a daily 09:00 in its zone across the change to summer time: 23 hours, then 24', marbles((m) => {
    const daily = job('0 9 * * *', 'America/New_York', { last_slot: BASE });
    const expected = `${23 * 60}m a ${24 * 60 * MINUTE - 1}ms (b|)`;

    m.expect(slotsOf$(m, daily).pipe(take(2))).toBeObservable(expected, {
      a: { slot: Date.parse('2026-03-08T13:00:00Z'), trigger: 'schedule' },
      b: { slot: Date.parse('2026-03-09T13:00:00Z'), trigger: 'schedule' },
    });
  }));

  it('fires the latest missed slot once at start-up when it is within the grace, however many were missed', marbles((m) => {
    // Three slots missed (BASE - 2m, - 1m, BASE) while no instance ran; subscribed 30 s after the last.
    const late = job('every 1m', 'UTC', { anchor: BASE - 10 * MINUTE, owed_from: BASE - 10 * MINUTE, last_slot: BASE - 3 * MINUTE });
    const expected = 'c 29999ms (s|)';

    m.expect(slotsOf$(m, late).pipe(take(2)), '30s ^').toBeObservable(`30s ${expected}`, {
      c: { slot: BASE, trigger: 'catch_up' },
      s: { slot: BASE + MINUTE, trigger: 'schedule' },
    });
  }));

  it('lets a missed slot older than the grace go', marbles((m) => {
    const late = job('every 1m', 'UTC', { anchor: BASE - 10 * MINUTE, owed_from: BASE - 10 * MINUTE, last_slot: BASE - 3 * MINUTE });

    m.expect(slotsOf$(m, late, 10_000).pipe(take(1)), '30s ^').toBeObservable('1m (s|)', {
      s: { slot: BASE + MINUTE, trigger: 'schedule' },
    });
  }));

  it('owes nothing for a slot the job was paused through', marbles((m) => {
    const resumed = job('every 1m', 'UTC', { anchor: BASE - 10 * MINUTE, owed_from: BASE + 20_000, last_slot: BASE - 3 * MINUTE });

    m.expect(slotsOf$(m, resumed).pipe(take(1)), '30s ^').toBeObservable('1m (s|)', {
      s: { slot: BASE + MINUTE, trigger: 'schedule' },
    });
  }));

  it('fires a one-time schedule once, in its zone, and then completes', marbles((m) => {
    const once = job('2026-03-07T09:30:00', 'America/New_York');

    m.expect(slotsOf$(m, once)).toBeObservable('30m (o|)', { o: { slot: BASE + 30 * MINUTE, trigger: 'schedule' } });
  }));
});
