import { describe, expect, it } from 'vitest';
import type { JobObject, JobRunObject } from '../../../src/jobs/jobObject.js';
import { useInstances } from '../../support/redisInstances.js';
import { post } from '../../support/runsClient.js';
import { answer } from '../../support/scriptedUpstream.js';

const SLOTS = 20;

describe('jobs with two instances on one Redis', () => {
  const instances = useInstances();

  it(`fires an every-second job exactly once per slot over ${SLOTS} slots`, async () => {
    const {
      upstream,
      instances: [one, two],
    } = await instances.start([answer('tick')], 2, { jobsRefreshMs: 200 });
    const created = await post(`${one!.url}/api/jobs`, { name: 'tick', schedule: 'every 1s', input: 'tick' });
    expect(created.status).toBe(201);
    const job = (await created.json()) as JobObject;
    // The other instance learns of the job from its next read of the list.
    await expect.poll(async () => (await fetch(`${two!.url}/api/jobs/${job.id}`)).status).toBe(200);

    const firesOf = async () => ((await (await fetch(`${two!.url}/api/jobs/${job.id}/runs`)).json()) as { data: JobRunObject[] }).data;
    await expect.poll(async () => (await firesOf()).length, { timeout: (SLOTS + 10) * 1_000, interval: 500 }).toBeGreaterThanOrEqual(SLOTS);
    await post(`${one!.url}/api/jobs/${job.id}/pause`);
    const fires = (await firesOf()).reverse();

    const slots = fires.map(({ scheduled_for }) => scheduled_for);
    expect(new Set(slots).size).toBe(fires.length);
    // One fire for each second from the first to the last: none twice, none missed.
    expect(slots).toEqual(slots.map((_, index) => slots[0]! + index));
    // A slot is fired on time or, by an instance that read the list just after it, late; or skipped while the last run goes on (a loaded machine).
    expect(
      fires.every(({ trigger, run_id, skipped_reason }) => trigger !== 'manual' && (run_id === null) === (skipped_reason !== null)),
    ).toBe(true);
    const started = fires.filter(({ run_id }) => run_id !== null);
    expect(started.length).toBeGreaterThan(SLOTS / 2);
    const runs = await Promise.all(
      started.map(async ({ run_id }) => (await fetch(`${one!.url}/v1/runs/${run_id}`)).json() as Promise<{ job_id: string }>),
    );
    expect(runs.every(({ job_id }) => job_id === job.id)).toBe(true);
    await expect.poll(() => upstream.requests.length).toBe(new Set(started.map(({ run_id }) => run_id)).size);
  }, 60_000);
});
