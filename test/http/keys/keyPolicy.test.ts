import { afterEach, describe, expect, it } from 'vitest';
import { RedisKeyLimits } from '../../../src/store/redis/RedisKeyLimits.js';
import { sharedRedisStores } from '../../support/redisTest.js';
import { sampleOf } from '../../support/metricSamples.js';
import { finish, say, ScriptedAgent, usage } from '../../support/scriptedAgent.js';
import { startApp, type TestApp } from '../../support/startApp.js';
import { as, entryOf, teamKeys } from '../../support/teamKeys.js';

const apps: TestApp[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const close of closers.splice(0)) await close();
});

const keys = teamKeys(
  entryOf('narrow', { models: ['smart'] }),
  entryOf('wide', { models: ['rxgate-agent', 'smart'] }),
  entryOf('slow', { rpm: 3 }),
  entryOf('single', { maxStreams: 1 }),
);

async function start(options: Parameters<typeof startApp>[2] = {}) {
  const app = await startApp(new ScriptedAgent([{ silent: true }]), {}, { keys: () => keys, ...options });
  apps.push(app);
  return app.url;
}

const post = (url: string, key: string, body: unknown) => fetch(url, { method: 'POST', headers: as(key), body: JSON.stringify(body) });
const models = async (url: string, key: string) =>
  ((await (await fetch(`${url}/v1/models`, { headers: as(key) })).json()) as { data: { id: string }[] }).data.map(({ id }) => id);
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;

describe("a key's policy", () => {
  it("models: lists only the key's models and answers any other with 404 model_not_found", async () => {
    const url = await start();
    expect(await models(url, 'narrow')).toEqual([]);
    expect(await models(url, 'wide')).toEqual(['rxgate-agent']);
    expect(await models(url, 'team-a')).toEqual(['rxgate-agent']);
    expect((await fetch(`${url}/v1/models/rxgate-agent`, { headers: as('narrow') })).status).toBe(404);
    for (const [path, body] of [
      ['/v1/chat/completions', { messages: [{ role: 'user', content: 'hi' }] }],
      ['/v1/responses', { input: 'hi', model: 'rxgate-agent' }],
      ['/v1/runs', { input: 'hi' }],
    ] as const) {
      // Express matches a route whatever the case and with a trailing slash: the policy holds on every path that reaches it.
      for (const asked of [path, `${path}/`, path.toUpperCase()]) {
        const refused = await post(`${url}${asked}`, 'narrow', body);
        expect(refused.status, asked).toBe(404);
        expect(await errorOf(refused)).toBe('model_not_found');
      }
    }
  });

  it('models: holds for the runs of scheduled jobs too, when a job is made or changed', async () => {
    const url = await start();
    const job = { name: 'nightly', schedule: 'every 1d', input: 'hi' };
    for (const body of [job, { ...job, model: 'rxgate-agent' }]) {
      const refused = await post(`${url}/api/jobs`, 'narrow', body);
      expect(refused.status).toBe(404);
      expect(await errorOf(refused)).toBe('model_not_found');
    }
    const made = await post(`${url}/api/jobs`, 'narrow', { ...job, model: 'smart' });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    const patched = await fetch(`${url}/api/jobs/${id}`, {
      method: 'PATCH',
      headers: as('narrow'),
      body: JSON.stringify({ model: 'rxgate-agent' }),
    });
    expect(patched.status).toBe(404);
    expect(await errorOf(patched)).toBe('model_not_found');

    const theirs = (await (await post(`${url}/api/jobs`, 'ops', { ...job, model: 'rxgate-agent' })).json()) as { id: string };
    expect((await post(`${url}/api/jobs/${theirs.id}/run`, 'ops', {})).status).toBe(202);
  });

  it('models: a job started by hand holds the policy as it is now, narrowed since the job was made', async () => {
    let known = keys;
    const app = await startApp(new ScriptedAgent([{ silent: true }]), {}, { keys: () => known });
    apps.push(app);
    const made = await post(`${app.url}/api/jobs`, 'wide', { name: 'nightly', schedule: 'every 1d', input: 'hi', model: 'rxgate-agent' });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    known = teamKeys(entryOf('wide', { models: ['smart'] }));
    const refused = await post(`${app.url}/api/jobs/${id}/run`, 'wide', {});
    expect(refused.status).toBe(404);
    expect(await errorOf(refused)).toBe('model_not_found');
    expect(((await (await fetch(`${app.url}/api/jobs/${id}/runs`, { headers: as('wide') })).json()) as { data: unknown[] }).data).toEqual(
      [],
    );
  });

  it('rpm: the request past the limit in a minute is 429 rate_limit_exceeded with Retry-After', async () => {
    const url = await start();
    for (let request = 0; request < 3; request++) expect((await fetch(`${url}/v1/models`, { headers: as('slow') })).status).toBe(200);
    const refused = await fetch(`${url}/v1/models`, { headers: as('slow') });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await errorOf(refused)).toBe('rate_limit_exceeded');
    expect((await fetch(`${url}/v1/models`, { headers: as('team-a') })).status).toBe(200);
  });

  it('rpm: counts and limits /api requests with /v1 ones, in one window', async () => {
    const url = await start();
    for (const path of ['/v1/models', '/api/jobs', '/v1/models'])
      expect((await fetch(`${url}${path}`, { headers: as('slow') })).status).toBe(200);
    const refused = await fetch(`${url}/api/jobs`, { headers: as('slow') });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await errorOf(refused)).toBe('rate_limit_exceeded');
    expect((await fetch(`${url}/api/jobs`, { headers: as('team-a') })).status).toBe(200);
  });

  it('metrics: counts the tokens of each key, in and out, for chat completions, responses and detached runs', async () => {
    const app = await startApp(new ScriptedAgent([say('ok'), usage(7, 3), finish()]), {}, { keys: () => keys });
    apps.push(app);
    const { url } = app;
    const messages = [{ role: 'user', content: 'hi' }];
    expect((await post(`${url}/v1/chat/completions`, 'team-a', { messages })).status).toBe(200);
    expect((await post(`${url}/v1/responses`, 'team-a', { input: 'hi', model: 'rxgate-agent' })).status).toBe(200);
    expect((await post(`${url}/v1/runs`, 'team-b', { input: 'hi' })).status).toBe(202);
    const tokens = async (key: string, direction: string) =>
      sampleOf(await (await fetch(`${url}/metrics`, { headers: as('ops') })).text(), 'rxgate_key_tokens_total', { key, direction });
    await expect.poll(() => tokens('team-b', 'in')).toBe(7);
    expect(await tokens('team-b', 'out')).toBe(3);
    expect([await tokens('team-a', 'in'), await tokens('team-a', 'out')]).toEqual([14, 6]);
    expect(await tokens('ops', 'in')).toBeUndefined();
  });

  it('maxStreams: a detached run holds its slot until it ends; the next is 429 with Retry-After until then', async () => {
    const url = await start();
    const first = await post(`${url}/v1/runs`, 'single', { input: 'hi' });
    expect(first.status).toBe(202);
    const { run_id: runId } = (await first.json()) as { run_id: string };
    const refused = await post(`${url}/v1/runs`, 'single', { input: 'again' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await errorOf(refused)).toBe('rate_limit_exceeded');
    expect((await post(`${url}/v1/runs/${runId}/stop`, 'single', {})).status).toBe(200);
    await expect.poll(async () => (await post(`${url}/v1/runs`, 'single', { input: 'now' })).status).toBe(202);
  });

  it("maxStreams: a job's run started by hand holds a slot like any run", async () => {
    const url = await start();
    const job = (await (await post(`${url}/api/jobs`, 'single', { name: 'j', schedule: 'every 1d', input: 'hi' })).json()) as {
      id: string;
    };
    const first = await post(`${url}/api/jobs/${job.id}/run`, 'single', {});
    expect(first.status).toBe(202);
    const { run_id: runId } = (await first.json()) as { run_id: string };
    for (const path of [`/api/jobs/${job.id}/run`, `/API/jobs/${job.id}/run/`, '/v1/runs', '/v1/runs/', '/V1/Runs']) {
      const refused = await post(`${url}${path}`, 'single', { input: 'again' });
      expect(refused.status, path).toBe(429);
      expect(await errorOf(refused)).toBe('rate_limit_exceeded');
    }
    expect((await post(`${url}/v1/runs/${runId}/stop`, 'single', {})).status).toBe(200);
    await expect.poll(async () => (await post(`${url}/api/jobs/${job.id}/run`, 'single', {})).status).toBe(202);
  });

  it('holds rpm and maxStreams across two instances sharing a Redis', async () => {
    const urls: string[] = [];
    for (const store of await sharedRedisStores(2, closers)) {
      urls.push(await start({ store, keyLimits: new RedisKeyLimits(store.redis, store.keys, 600) }));
    }
    const [a, b] = urls as [string, string];
    for (const url of [a, b, a]) expect((await fetch(`${url}/v1/models`, { headers: as('slow') })).status).toBe(200);
    const limited = await fetch(`${b}/v1/models`, { headers: as('slow') });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    const first = await post(`${a}/v1/runs`, 'single', { input: 'hi' });
    expect(first.status).toBe(202);
    const refused = await post(`${b}/v1/runs`, 'single', { input: 'again' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    const { run_id: runId } = (await first.json()) as { run_id: string };
    expect((await post(`${a}/v1/runs/${runId}/stop`, 'single', {})).status).toBe(200);
    await expect.poll(async () => (await post(`${b}/v1/runs`, 'single', { input: 'now' })).status).toBe(202);
  });
});
