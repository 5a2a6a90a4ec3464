import { describe, expect, it } from 'vitest';
import { PlannedJobs } from '../../../src/jobs/PlannedJobs.js';
import type { StoredJob } from '../../../src/store/JobStore.js';

const job = (index: number, fields: Partial<StoredJob> = {}): StoredJob => ({
  id: `job_${index}`,
  owner: 'default',
  name: `job ${index}`,
  schedule: '0 3 * * *',
  timezone: 'UTC',
  enabled: true,
  input: 'tick',
  created_at: index,
  anchor: index,
  owed_from: index,
  last_slot: null,
  ...fields,
});

const ids = (changes: ReturnType<PlannedJobs['changes']>) => changes.map(({ id, job: planned }) => [id, planned !== undefined]);

describe('PlannedJobs', () => {
  const jobs = Array.from({ length: 400 }, (_, index) => job(index));

  it('plans every enabled job of the first list, and none of a list read again unchanged (claims, names and inputs do not move slots)', () => {
    const planned = new PlannedJobs();
    expect(planned.changes({ list: jobs })).toHaveLength(400);
    expect(planned.changes({ list: jobs })).toEqual([]);
    const touched = jobs.map((one) => ({ ...one, last_slot: 1_000, name: 'renamed', input: 'other', model: 'other' }));
    expect(planned.changes({ list: touched })).toEqual([]);
  });

  it('plans again only the jobs rescheduled, paused, resumed, added or removed', () => {
    const planned = new PlannedJobs();
    planned.changes({ list: jobs });
    const next = jobs.map((one, index) =>
      index === 7 ? { ...one, schedule: 'every 1h', anchor: 99 } : index === 8 ? { ...one, enabled: false } : one,
    );
    expect(ids(planned.changes({ list: [...next.filter((one) => one.id !== 'job_9'), job(400)] }))).toEqual([
      ['job_9', false],
      ['job_7', true],
      ['job_8', false],
      ['job_400', true],
    ]);
    expect(ids(planned.changes({ saved: { ...next[8]!, enabled: true, owed_from: 500 } }))).toEqual([['job_8', true]]);
    expect(ids(planned.changes({ saved: next[10]! }))).toEqual([]);
    expect(ids(planned.changes({ deleted: 'job_10' }))).toEqual([['job_10', false]]);
    expect(ids(planned.changes({ deleted: 'job_10' }))).toEqual([]);
  });
});
