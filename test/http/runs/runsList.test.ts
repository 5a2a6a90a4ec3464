import { afterEach, describe, expect, it } from 'vitest';
import { followRun } from '../../support/followRun.js';
import { ManualAgent } from '../../support/manualAgent.js';
import { sharedRedisStores } from '../../support/redisTest.js';
import { createRun } from '../../support/runsClient.js';
import { startApp, type TestApp } from '../../support/startApp.js';

let app: TestApp | undefined;
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await app?.close();
  app = undefined;
  for (const close of closers.splice(0)) await close();
});

interface RunList {
  readonly object: string;
  readonly data: readonly { readonly id: string; readonly status: string; readonly output: string }[];
  readonly first_id: string | null;
  readonly last_id: string | null;
  readonly has_more: boolean;
}

async function list(url: string, query = ''): Promise<RunList> {
  const response = await fetch(`${url}/v1/runs${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as RunList;
}

/** Three runs: the first and last completed, the middle one still running. */
async function threeRuns() {
  const agent = new ManualAgent();
  app = await startApp(agent);
  const ids: string[] = [];
  for (let index = 0; index < 3; index++) {
    ids.push(await createRun(app.url, `run ${index}`));
    const run = await agent.started(index);
    run.events.next({ type: 'text', delta: `answer ${index}` });
    if (index !== 1) {
      run.events.complete();
      await (await followRun(app.url, ids[index]!)).rest();
    }
  }
  return { url: app.url, ids: ids as [string, string, string] };
}

describe('GET /v1/runs', () => {
  it('lists runs newest first, a running one as it stands', async () => {
    const { url, ids } = await threeRuns();
    const page = await list(url);
    expect(page).toMatchObject({ object: 'list', first_id: ids[2], last_id: ids[0], has_more: false });
    expect(page.data.map(({ id, status, output }) => [id, status, output])).toEqual([
      [ids[2], 'completed', 'answer 2'],
      [ids[1], 'running', 'answer 1'],
      [ids[0], 'completed', 'answer 0'],
    ]);
  });

  it('pages with limit and after', async () => {
    const { url, ids } = await threeRuns();
    const first = await list(url, '?limit=2');
    expect(first.data.map(({ id }) => id)).toEqual([ids[2], ids[1]]);
    expect(first.has_more).toBe(true);
    const second = await list(url, `?limit=2&after=${first.last_id}`);
    expect(second.data.map(({ id }) => id)).toEqual([ids[0]]);
    expect(second.has_more).toBe(false);
  });

  it('filters by status, paging over what it leaves out', async () => {
    const { url, ids } = await threeRuns();
    expect((await list(url, '?status=completed')).data.map(({ id }) => id)).toEqual([ids[2], ids[0]]);
    expect(await list(url, '?status=running&limit=1')).toMatchObject({ first_id: ids[1], has_more: false });
    const completed = await list(url, '?status=completed&limit=1');
    expect(completed).toMatchObject({ first_id: ids[2], has_more: true });
    expect((await list(url, `?status=completed&after=${completed.last_id}`)).data.map(({ id }) => id)).toEqual([ids[0]]);
    expect((await list(url, '?status=cancelled')).data).toEqual([]);
  });

  it('fills a page on Redis past runs that expired between reading the index and reading them', async () => {
    const [store] = await sharedRedisStores(1, closers);
    app = await startApp(new ManualAgent(), {}, { store });
    const ids = Array.from({ length: 102 }, (_, index) => `run_${String(index).padStart(3, '0')}`);
    for (const id of ids) await store!.runs.save({ id, status: 'completed' });
    // What a TTL does: the run's hash goes, its entry in the index stays. This one ends the store's first read of 100.
    await store!.redis.del(store!.keys.run(ids[2]!));

    const page = await list(app.url, '?limit=100');
    expect(page.data).toHaveLength(100);
    expect(page).toMatchObject({ first_id: ids[101], last_id: ids[1], has_more: true });
    expect(page.data.map(({ id }) => id)).not.toContain(ids[2]);
    expect((await list(app.url, `?limit=100&after=${page.last_id}`)).data.map(({ id }) => id)).toEqual([ids[0]]);
  });

  it('refuses a bad limit, status or after with 400 naming it', async () => {
    app = await startApp(new ManualAgent());
    for (const [query, param] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=ten', 'limit'],
      ['?status=done', 'status'],
      ['?after=run_missing', 'after'],
    ] as const) {
      const response = await fetch(`${app.url}/v1/runs${query}`);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { error: { param: string; code: string } }).error, query).toMatchObject({
        param,
        code: 'invalid_value',
      });
    }
  });
});
