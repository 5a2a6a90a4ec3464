import { Cron } from 'croner';
import { afterEach, describe, expect, it } from 'vitest';
import { indexKeys } from '../../../src/http/keys/resolveKey.js';
import type { JobObject, JobRunObject } from '../../../src/jobs/jobObject.js';
import { SqliteStore } from '../../../src/store/sqlite/SqliteStore.js';
import { failingStore } from '../../support/failingStore.js';
import { ManualAgent, type ManualRun } from '../../support/manualAgent.js';
import { post } from '../../support/runsClient.js';
import { finish as finishRun, say, ScriptedAgent } from '../../support/scriptedAgent.js';
import { startApp, type TestApp } from '../../support/startApp.js';
import { as, entryOf, teamKeys } from '../../support/teamKeys.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const send = (url: string, method: string, body?: unknown) =>
  fetch(url, { method, body: body === undefined ? undefined : JSON.stringify(body) });

async function createJob(url: string, body: Record<string, unknown>): Promise<JobObject> {
  const response = await post(`${url}/api/jobs`, body);
  expect(response.status).toBe(201);
  return (await response.json()) as JobObject;
}

const runsOf = async (url: string, jobId: string) =>
  ((await (await fetch(`${url}/api/jobs/${jobId}/runs`)).json()) as { data: JobRunObject[] }).data;

const finish = (run: ManualRun, text = 'done') => {
  run.events.next({ type: 'text', delta: text });
  run.events.complete();
};

/** The user input a job's run was started with. */
const inputOf = (run: ManualRun) => run.request.messages.at(-1)?.content;

const runsWithInput = (agent: ManualAgent, input: string) => agent.runs.filter((run) => inputOf(run) === input);

/**
 * A second job of the same owner on the same every-second schedule: its fires show by events, not by
 * a sleep, that the scheduler went past the slots of the job beside it. Made before the pause or
 * delete under test, so that the scheduler learns of that change from the change itself.
 */
async function createSibling(agent: ManualAgent, url: string) {
  let next = agent.runs.length;
  const { id } = await createJob(url, { name: 'sibling', schedule: 'every 1s', input: 'sibling' });
  return {
    /**
     * Resolves once it has fired `times` times, then deletes it. Each run is finished, or its next
     * slot would be skipped as still going; so is a run of another job that starts meanwhile.
     */
    async fired(times: number): Promise<void> {
      let fired = 0;
      while (fired < times) {
        const run = await agent.started(next++);
        finish(run);
        if (inputOf(run) === 'sibling') fired++;
      }
      expect((await send(`${url}/api/jobs/${id}`, 'DELETE')).status).toBe(200);
    },
  };
}

describe('the jobs API', () => {
  it.each([
    [{ name: 'x', schedule: 'every 5 fortnights', input: 'hi' }, 'schedule', "invalid 'schedule'"],
    [{ name: 'x', schedule: '61 * * * *', input: 'hi' }, 'schedule', 'Invalid value for minute'],
    [{ name: 'x', schedule: '* * * * * *', input: 'hi' }, 'schedule', 'requires exactly 5 parts'],
    [{ name: 'x', schedule: '2020-01-01T09:00:00', input: 'hi' }, 'schedule', 'has passed'],
    [{ name: 'x', schedule: '2097-02-30T09:00:00', input: 'hi' }, 'schedule', '2097-02 has 28 days'],
    [{ name: 'x', schedule: '2097-02-29T09:00:00Z', input: 'hi' }, 'schedule', 'names a day that does not exist'],
    [{ name: 'x', schedule: '2100-02-29T09:00:00', input: 'hi' }, 'schedule', '2100-02 has 28 days'],
    [{ name: 'x', schedule: '2097-04-31T09:00:00+02:00', input: 'hi' }, 'schedule', '2097-04 has 30 days'],
    [{ name: 'x', schedule: '0 9 30 2 *', input: 'hi' }, 'schedule', 'never fires'],
    [{ name: 'x', schedule: '0 9 * * *', timezone: 'Mars/Olympus_Mons', input: 'hi' }, 'timezone', 'is not an IANA time zone'],
    [{ name: 'x', schedule: '30m' }, 'input', "missing required parameter: 'input'"],
    [{ name: 'x', schedule: '30m', input: [] }, 'input', 'input must not be empty'],
  ])('refuses %j with a 400 naming %s', async (body, param, message) => {
    app = await startApp(new ManualAgent());
    const response = await post(`${app.url}/api/jobs`, body);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { param: string; message: string; type: string } };
    expect(error).toMatchObject({ param, type: 'invalid_request_error' });
    expect(error.message).toContain(message);
  });

  it('makes a cron job in its zone, shows its next slot, lists, changes and deletes it; a missing id is a 404', async () => {
    app = await startApp(new ManualAgent());
    const job = await createJob(app.url, { name: 'morning', schedule: '0 9 * * *', timezone: 'Europe/Berlin', input: 'summarise' });
    const next = new Cron('0 9 * * *', { timezone: 'Europe/Berlin' }).nextRun()!.getTime() / 1000;
    expect(job).toMatchObject({ object: 'job', name: 'morning', enabled: true, next_run_at: next, last_run_id: null, last_status: null });
    expect(new Intl.DateTimeFormat('en', { timeZone: 'Europe/Berlin', hour: 'numeric', hourCycle: 'h23' }).format(next * 1000)).toBe('09');

    const list = (await (await fetch(`${app.url}/api/jobs`)).json()) as { data: JobObject[] };
    expect(list.data.map(({ id }) => id)).toEqual([job.id]);
    const patched = (await (
      await send(`${app.url}/api/jobs/${job.id}`, 'PATCH', { schedule: 'every 2h', name: 'often' })
    ).json()) as JobObject;
    expect(patched).toMatchObject({ id: job.id, name: 'often', schedule: 'every 2h', input: 'summarise' });
    expect(patched.next_run_at! - patched.created_at).toBeGreaterThanOrEqual(7199);
    const badPatch = await send(`${app.url}/api/jobs/${job.id}`, 'PATCH', { timezone: 'Nowhere/Else' });
    expect(badPatch.status).toBe(400);
    const noSuchDay = await send(`${app.url}/api/jobs/${job.id}`, 'PATCH', { schedule: '2097-04-31T09:00:00' });
    expect(noSuchDay.status).toBe(400);
    expect(((await noSuchDay.json()) as { error: { param: string } }).error.param).toBe('schedule');
    const leapDay = (await (
      await send(`${app.url}/api/jobs/${job.id}`, 'PATCH', { schedule: '2096-02-29T09:00:00Z' })
    ).json()) as JobObject;
    expect(leapDay.next_run_at).toBe(Date.UTC(2096, 1, 29, 9) / 1000);

    expect(await (await send(`${app.url}/api/jobs/${job.id}`, 'DELETE')).json()).toEqual({
      id: job.id,
      object: 'job.deleted',
      deleted: true,
    });
    const missing = await fetch(`${app.url}/api/jobs/${job.id}`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: { message: `rxgate: job '${job.id}' not found`, type: 'not_found_error', param: null, code: 'job_not_found' },
    });
  });

  it('refuses to move a one-time job into the past by its zone alone, as it refuses a past time on create', async () => {
    app = await startApp(new ManualAgent());
    // An hour from now on a UTC wall clock: eight hours ago on Tokyo's (UTC+9, no daylight saving).
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString().slice(0, 19);
    const job = await createJob(app.url, { name: 'once', schedule: inAnHour, input: 'hi' });
    expect(job.next_run_at).not.toBeNull();

    const response = await send(`${app.url}/api/jobs/${job.id}`, 'PATCH', { timezone: 'Asia/Tokyo' });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { param: string; message: string } };
    expect(error).toMatchObject({ param: 'schedule' });
    expect(error.message).toContain('has passed');
    expect(await (await fetch(`${app.url}/api/jobs/${job.id}`)).json()).toMatchObject({ timezone: 'UTC', next_run_at: job.next_run_at });
  });

  it('fires an every-second job as ordinary runs that show its id, skipping and recording a slot whose previous run still goes', async () => {
    const agent = new ManualAgent();
    app = await startApp(agent, { jobsRefreshMs: 60_000 });
    const { url } = app;
    const job = await createJob(url, { name: 'tick', schedule: 'every 1s', input: 'tick', instructions: 'be brief' });

    const first = await agent.started(0);
    expect(first.request.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'tick' },
    ]);
    // The first run is held open: the next slot finds it going.
    await expect
      .poll(async () => (await runsOf(url, job.id)).map(({ status }) => status), { timeout: 5_000 })
      .toEqual(['skipped', 'running']);
    const [skipped, fired] = await runsOf(url, job.id);
    expect(skipped).toMatchObject({
      trigger: 'schedule',
      run_id: null,
      skipped_reason: `the previous run ${fired!.run_id} is still going`,
    });
    expect(skipped!.scheduled_for).toBeGreaterThan(fired!.scheduled_for);

    finish(first);
    const second = await agent.started(1);
    finish(second);
    await expect.poll(async () => (await runsOf(url, job.id)).find(({ run_id }) => run_id !== null)?.status).toBe('completed');
    const run = (await (await fetch(`${url}/v1/runs/${fired!.run_id}`)).json()) as Record<string, unknown>;
    expect(run).toMatchObject({ id: fired!.run_id, status: 'completed', output: 'done', job_id: job.id });
    const shown = (await (await fetch(`${url}/api/jobs/${job.id}`)).json()) as JobObject;
    expect(shown.last_run_id).toMatch(/^run_/);
  });

  it('never records a fire whose run started as skipped, when recording it fails', async () => {
    let failOnce = true;
    const store = failingStore(new SqliteStore({ dataDir: ':memory:' }), (call) => {
      const fail = failOnce && call === 'jobs.record';
      if (fail) failOnce = false;
      return fail;
    });
    const agent = new ManualAgent();
    app = await startApp(agent, { jobsRefreshMs: 60_000 }, { store });
    const { url } = app;
    const job = await createJob(url, { name: 'tick', schedule: 'every 1s', input: 'tick' });

    // The first run starts and its fire cannot be recorded; the next slot's is.
    await agent.started(0);
    await agent.started(1);
    await expect.poll(async () => (await runsOf(url, job.id)).some(({ run_id }) => run_id !== null)).toBe(true);
    expect(store.failures).toBe(1);
    expect((await runsOf(url, job.id)).map(({ status, skipped_reason }) => [status, skipped_reason])).toEqual([['running', null]]);
  });

  it('fires nothing while paused, fires again after resume, runs now on request, and a deleted job fires no more while its run goes on', async () => {
    const agent = new ManualAgent();
    app = await startApp(agent, { jobsRefreshMs: 60_000 });
    const { url } = app;
    const job = await createJob(url, { name: 'tick', schedule: 'every 1s', input: 'tick', enabled: false });
    expect(job).toMatchObject({ enabled: false, next_run_at: null });

    const now = await post(`${url}/api/jobs/${job.id}/run`);
    expect(now.status).toBe(202);
    expect(await now.json()).toMatchObject({ job_id: job.id, status: 'running' });
    finish(await agent.started(0));
    await expect
      .poll(async () => (await runsOf(url, job.id)).map(({ trigger, status }) => [trigger, status]))
      .toEqual([['manual', 'completed']]);
    // An absence shows only over time: three fires of a sibling on the same schedule, none of the paused job.
    await (await createSibling(agent, url)).fired(3);
    expect(runsWithInput(agent, 'tick')).toHaveLength(1);

    const runsBefore = agent.runs.length;
    const resumed = (await (await post(`${url}/api/jobs/${job.id}/resume`)).json()) as JobObject;
    expect(resumed.enabled).toBe(true);
    expect(resumed.next_run_at).not.toBeNull();
    const fired = await agent.started(runsBefore);
    const runId = (await runsOf(url, job.id))[0]!.run_id!;
    const sibling = await createSibling(agent, url);
    expect(await (await send(`${url}/api/jobs/${job.id}`, 'DELETE')).json()).toMatchObject({ deleted: true });
    await sibling.fired(3);
    expect(runsWithInput(agent, 'tick')).toHaveLength(2);
    finish(fired, 'still here');
    await expect.poll(async () => ((await (await fetch(`${url}/v1/runs/${runId}`)).json()) as { status: string }).status).toBe('completed');
  });

  it('pauses a firing job: 200 with enabled false, and no further runs', async () => {
    const agent = new ManualAgent();
    app = await startApp(agent, { jobsRefreshMs: 60_000 });
    const { url } = app;
    const job = await createJob(url, { name: 'tick', schedule: 'every 1s', input: 'tick' });
    finish(await agent.started(0));
    const sibling = await createSibling(agent, url);
    const paused = (await (await post(`${url}/api/jobs/${job.id}/pause`)).json()) as JobObject;
    expect(paused).toMatchObject({ enabled: false, next_run_at: null });
    const seen = runsWithInput(agent, 'tick').length;
    await sibling.fired(3);
    expect(runsWithInput(agent, 'tick')).toHaveLength(seen);
  });
});

describe('the jobs of a key', () => {
  it("skips, saying why, the fires of a job whose owner's key is revoked or no longer allows its model", async () => {
    let keys = teamKeys(entryOf('wide', { models: ['rxgate-agent', 'smart'] }));
    app = await startApp(new ScriptedAgent([say('ok'), finishRun()]), { jobsRefreshMs: 60_000 }, { keys: () => keys });
    const { url } = app;
    const make = async (key: string) => {
      const body = JSON.stringify({ name: 'tick', schedule: 'every 1s', input: 'tick' });
      const response = await fetch(`${url}/api/jobs`, { method: 'POST', headers: as(key), body });
      expect(response.status).toBe(201);
      return ((await response.json()) as JobObject).id;
    };
    const newestFire = async (jobId: string) =>
      ((await (await fetch(`${url}/api/jobs/${jobId}/runs`, { headers: as('ops') })).json()) as { data: JobRunObject[] }).data[0];
    const revoked = await make('team-a');
    const narrowed = await make('wide');
    for (const job of [revoked, narrowed])
      await expect.poll(async () => (await newestFire(job))?.status, { timeout: 5_000 }).toBe('completed');

    // The keys file reloaded without team-a, and with wide's models narrowed.
    keys = indexKeys([entryOf('team-b'), entryOf('ops', { admin: true }), entryOf('wide', { models: ['smart'] })]);
    await expect
      .poll(() => newestFire(revoked), { timeout: 5_000 })
      .toMatchObject({ run_id: null, status: 'skipped', skipped_reason: "its owner 'team-a' has no key in force (revoked or expired)" });
    await expect
      .poll(() => newestFire(narrowed), { timeout: 5_000 })
      .toMatchObject({ run_id: null, status: 'skipped', skipped_reason: "its owner's key 'wide' may not use the model 'rxgate-agent'" });
  });

  it("takes a maxStreams slot of its owner's key for the life of its run, and skips, saying why, a fire that finds none free", async () => {
    const agent = new ManualAgent();
    app = await startApp(agent, { jobsRefreshMs: 60_000 }, { keys: () => teamKeys(entryOf('single', { maxStreams: 1 })) });
    const { url } = app;
    const ask = (path: string, body: unknown = {}) =>
      fetch(`${url}${path}`, { method: 'POST', headers: as('single'), body: JSON.stringify(body) });
    const newestFire = async (jobId: string) =>
      ((await (await fetch(`${url}/api/jobs/${jobId}/runs`, { headers: as('single') })).json()) as { data: JobRunObject[] }).data[0];

    // A run of the key's own holds its one slot while the job's first slot comes.
    expect((await ask('/v1/runs', { input: 'hold' })).status).toBe(202);
    const held = await agent.started(0);
    const made = await ask('/api/jobs', { name: 'tick', schedule: 'every 1s', input: 'tick' });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as JobObject;
    await expect
      .poll(() => newestFire(id), { timeout: 5_000 })
      .toMatchObject({
        run_id: null,
        status: 'skipped',
        skipped_reason: "its owner's key 'single' is at its maxStreams limit (1 stream)",
      });
    expect(agent.runs).toHaveLength(1);

    // Freed, the slot goes to the next fire, whose run holds it until it ends.
    finish(held);
    const fired = await agent.started(1);
    expect((await ask(`/api/jobs/${id}/pause`)).status).toBe(200);
    const refused = await ask('/v1/runs', { input: 'again' });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
    finish(fired);
    await expect.poll(async () => (await ask('/v1/runs', { input: 'now' })).status).toBe(202);
    finish(await agent.started(2));
  });
});
