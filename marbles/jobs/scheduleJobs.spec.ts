import { take } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { describe, it } from 'vitest';
import { scheduleJobs } from '../../src/jobs/scheduleJobs.js';
import type { JobsNews } from '../../src/jobs/PlannedJobs.js';
import type { StoredJob } from '../../src/store/JobStore.js';
import { marbles } from '../support/marbles.js';

const BASE = Date.parse('2026-12-01T10:00:00Z');

const every10s: StoredJob = {
  id: 'job_1',
  owner: 'default',
  name: 'tick',
  schedule: 'every 10s',
  timezone: 'UTC',
  enabled: true,
  input: 'tick',
  created_at: BASE,
  anchor: BASE,
  owed_from: BASE,
  last_slot: null,
};

/** Each value a whole list, as a read of the store gives it. */
const lists = (values: Record<string, StoredJob[]>): Record<string, JobsNews> =>
  Object.fromEntries(Object.entries(values).map(([name, list]) => [name, { list }]));

const timingOf = (m: { scheduler: TestScheduler }) => ({ clock: () => BASE + m.scheduler.now(), scheduler: m.scheduler, graceMs: 60_000 });

describe('scheduleJobs', () => {
  it('fires nothing while a job is paused, and on resume only the slots after it (none owed for the pause)', marbles((m) => {
    const paused = { ...every10s, enabled: false };
    // Resumed at 25 s: the 20 s slot passed while paused.
    const resumed = { ...every10s, owed_from: BASE + 25_000, last_slot: BASE + 10_000 };
    const jobs$ = m.cold('a 14999ms p 9999ms r', lists({ a: [every10s], p: [paused], r: [resumed] }));
    const expected = '10s a 19999ms b 9999ms (c|)';

    m.expect(jobs$.pipe(scheduleJobs(timingOf(m)), take(3))).toBeObservable(expected, {
      a: { job: every10s, slot: BASE + 10_000, trigger: 'schedule' },
      b: { job: resumed, slot: BASE + 30_000, trigger: 'schedule' },
      c: { job: resumed, slot: BASE + 40_000, trigger: 'schedule' },
    });
  }));

  it('fires a deleted job no more, and the others on', marbles((m) => {
    const other = { ...every10s, id: 'job_2', schedule: 'every 15s' };
    const jobs$ = m.cold('a 11999ms d', lists({ a: [every10s, other], d: [other] }));
    const expected = '10s a 4999ms b 14999ms (c|)';

    m.expect(jobs$.pipe(scheduleJobs(timingOf(m)), take(3))).toBeObservable(expected, {
      a: { job: every10s, slot: BASE + 10_000, trigger: 'schedule' },
      b: { job: other, slot: BASE + 15_000, trigger: 'schedule' },
      c: { job: other, slot: BASE + 30_000, trigger: 'schedule' },
    });
  }));

  it('fires a slot once across a list read again just after it, which carries its claim (its slots as planned: the claim does not move them)', marbles((m) => {
    const claimed = { ...every10s, last_slot: BASE + 10_000 };
    const jobs$ = m.cold('a 10499ms c', lists({ a: [every10s], c: [claimed] }));
    const expected = '10s a 9999ms (b|)';

    m.expect(jobs$.pipe(scheduleJobs(timingOf(m)), take(2))).toBeObservable(expected, {
      a: { job: every10s, slot: BASE + 10_000, trigger: 'schedule' },
      b: { job: every10s, slot: BASE + 20_000, trigger: 'schedule' },
    });
  }));

  it('leaves an unchanged job planned when another is added: its slot that came just before is not caught up again', marbles((m) => {
    // Its claim not in the list yet (another instance won it, or the write is under way): planned again, the 10 s slot would be owed.
    const other = { ...every10s, id: 'job_2', schedule: 'every 15s' };
    const jobs$ = m.cold('a 10499ms b', lists({ a: [every10s], b: [every10s, other] }));
    const expected = '10s a 4999ms b 4999ms (c|)';

    m.expect(jobs$.pipe(scheduleJobs(timingOf(m)), take(3))).toBeObservable(expected, {
      a: { job: every10s, slot: BASE + 10_000, trigger: 'schedule' },
      b: { job: other, slot: BASE + 15_000, trigger: 'schedule' },
      c: { job: every10s, slot: BASE + 20_000, trigger: 'schedule' },
    });
  }));

  it('plans again the job whose schedule changed, and only it', marbles((m) => {
    const other = { ...every10s, id: 'job_2', schedule: 'every 15s' };
    const renamed = { ...other, name: 'renamed' };
    // Rescheduled at 12 s to every 7 s: its slots count from then (19 s, 26 s); the other keeps its own (15 s, 30 s).
    const rescheduled = { ...every10s, schedule: 'every 7s', anchor: BASE + 12_000, owed_from: BASE + 12_000 };
    const jobs$ = m.cold('a 11999ms b', lists({ a: [every10s, other], b: [rescheduled, renamed] }));
    const expected = '10s a 4999ms b 3999ms c 6999ms d 3999ms (e|)';

    m.expect(jobs$.pipe(scheduleJobs(timingOf(m)), take(5))).toBeObservable(expected, {
      a: { job: every10s, slot: BASE + 10_000, trigger: 'schedule' },
      b: { job: other, slot: BASE + 15_000, trigger: 'schedule' },
      c: { job: rescheduled, slot: BASE + 19_000, trigger: 'schedule' },
      d: { job: rescheduled, slot: BASE + 26_000, trigger: 'schedule' },
      e: { job: other, slot: BASE + 30_000, trigger: 'schedule' },
    });
  }));

  it('plans a job saved here at once, and a job deleted here no more, between two lists', marbles((m) => {
    const other = { ...every10s, id: 'job_2', schedule: 'every 15s', anchor: BASE + 1_000, owed_from: BASE + 1_000 };
    const news$ = m.cold<JobsNews>('a 999ms s 9999ms d', { a: { list: [every10s] }, s: { saved: other }, d: { deleted: 'job_1' } });
    const expected = '10s a 5999ms b 14999ms (c|)';

    m.expect(news$.pipe(scheduleJobs(timingOf(m)), take(3))).toBeObservable(expected, {
      a: { job: every10s, slot: BASE + 10_000, trigger: 'schedule' },
      b: { job: other, slot: BASE + 16_000, trigger: 'schedule' },
      c: { job: other, slot: BASE + 31_000, trigger: 'schedule' },
    });
  }));

  it('catches up, once, an unclaimed slot of a job that a later list shows enabled, within the grace (an instance starting)', marbles((m) => {
    const jobs$ = m.cold('a 10499ms a', lists({ a: [{ ...every10s, enabled: false }] }));
    const stillOwed$ = m.cold('a 10499ms b', lists({ a: [{ ...every10s, enabled: false }], b: [every10s] }));
    const expected = '10500ms c 9499ms (d|)';

    m.expect(jobs$.pipe(scheduleJobs(timingOf(m)))).toBeObservable('');
    m.expect(stillOwed$.pipe(scheduleJobs(timingOf(m)), take(2))).toBeObservable(expected, {
      c: { job: every10s, slot: BASE + 10_000, trigger: 'catch_up' },
      d: { job: every10s, slot: BASE + 20_000, trigger: 'schedule' },
    });
  }));
});
