import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/store/sqlite/SqliteStore.js';
import type { Store } from '../../../src/store/Store.js';
import { finish, say, ScriptedAgent } from '../../support/scriptedAgent.js';
import { startApp, type TestApp } from '../../support/startApp.js';
import { as, teamKeys } from '../../support/teamKeys.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Every store call made with an id, by name, in order: the "timing shape" of a request, whatever the clock says. */
function recordCalls(store: Store): string[] {
  const calls: string[] = [];
  for (const [part, target] of [
    ['responses', store.responses],
    ['runs', store.runs],
    ['events', store.events],
  ] as const) {
    for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(target)).filter((name) => name !== 'constructor')) {
      const methods = target as unknown as Record<string, unknown>;
      const method = methods[name];
      if (typeof method !== 'function') continue;
      methods[name] = (...args: unknown[]) => {
        if (typeof args[0] === 'string') calls.push(`${part}.${name}`);
        return (method as (...args: unknown[]) => unknown).apply(target, args);
      };
    }
  }
  return calls;
}

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly reads: readonly string[];
}

async function start() {
  const store = new SqliteStore({ dataDir: ':memory:' });
  app = await startApp(new ScriptedAgent([say('ok'), finish()]), {}, { store, keys: () => teamKeys() });
  return { url: app.url, calls: recordCalls(store) };
}

type Route = readonly [method: string, path: (id: string) => string, body?: (id: string) => unknown];

const RESPONSE_ROUTES: readonly Route[] = [
  ['GET', (id) => `/v1/responses/${id}`],
  ['GET', (id) => `/v1/responses/${id}?stream=true`],
  ['GET', (id) => `/v1/responses/${id}/input_items`],
  ['POST', (id) => `/v1/responses/${id}/cancel`],
  ['POST', () => `/v1/responses`, (id) => ({ input: 'go on', previous_response_id: id })],
  ['DELETE', (id) => `/v1/responses/${id}`],
];

const RUN_ROUTES: readonly Route[] = [
  ['GET', (id) => `/v1/runs/${id}`],
  ['GET', (id) => `/v1/runs/${id}/events`],
  ['POST', (id) => `/v1/runs/${id}/stop`],
  ['POST', (id) => `/v1/runs/${id}/approval`, () => ({ approval_id: 'appr_x', choice: 'once' })],
  ['POST', (id) => `/v1/runs/${id}/steer`, () => ({ input: 'faster' })],
];

describe('ownership between keys', () => {
  const ask = async (url: string, calls: string[], key: string, [method, path, body]: Route, id: string): Promise<Answer> => {
    calls.length = 0;
    const response = await fetch(`${url}${path(id)}`, {
      method,
      headers: as(key),
      body: body === undefined ? undefined : JSON.stringify(body(id)),
    });
    const text = await response.text();
    return { status: response.status, body: text.replaceAll(id, '<id>'), reads: [...calls] };
  };

  it.each([
    ['a stored response', RESPONSE_ROUTES, 'resp_00000000000000000000000000000000'],
    ['a run', RUN_ROUTES, 'run_00000000000000000000000000000000'],
  ] as const)('answers another key on %s exactly as for an id that does not exist, on every route', async (_kind, routes, randomId) => {
    const { url, calls } = await start();
    const isRun = randomId.startsWith('run_');
    const make = async () => {
      const made = await fetch(`${url}${isRun ? '/v1/runs' : '/v1/responses'}`, {
        method: 'POST',
        headers: as('team-a'),
        body: JSON.stringify({ input: 'hi', ...(isRun ? {} : { background: true }) }),
      });
      const madeBody = (await made.json()) as { id?: string; run_id?: string };
      const id = (madeBody.run_id ?? madeBody.id)!;
      const current: Route = ['GET', (x) => `/v1/${isRun ? 'runs' : 'responses'}/${x}`];
      await expect.poll(async () => (await ask(url, calls, 'team-a', current, id)).body).toMatch(/"status":"(completed|failed)"/);
      return id;
    };
    for (const route of routes) {
      const where = `${route[0]} ${route[1]('{id}')}`;
      const id = await make();
      const missing = await ask(url, calls, 'team-b', route, randomId);
      const others = await ask(url, calls, 'team-b', route, id);
      expect(missing.status, where).toBe(404);
      expect(others, where).toEqual(missing);

      const admin = await ask(url, calls, 'ops', route, id);
      const owner = await ask(url, calls, 'team-a', route, await make());
      // Past the ownership check: whatever the route says of the item itself, not that it is missing.
      for (const seen of [admin, owner]) expect(seen.body, where).not.toMatch(/"code":"(run|response)_not_found"/);
    }
  });

  it("lists in GET /v1/runs only the caller's runs; an `after` naming another key's run reads as a missing one", async () => {
    const { url } = await start();
    const runOf = async (key: string) => {
      const response = await fetch(`${url}/v1/runs`, { method: 'POST', headers: as(key), body: JSON.stringify({ input: 'hi' }) });
      return ((await response.json()) as { run_id: string }).run_id;
    };
    const ours = await runOf('team-a');
    const theirs = await runOf('team-b');
    const list = async (key: string, query = '') => {
      const response = await fetch(`${url}/v1/runs${query}`, { headers: as(key) });
      return { status: response.status, body: await response.text() };
    };
    const idsOf = async (key: string) => (JSON.parse((await list(key)).body) as { data: { id: string }[] }).data.map(({ id }) => id);
    expect(await idsOf('team-a')).toEqual([ours]);
    expect(await idsOf('team-b')).toEqual([theirs]);
    expect((await idsOf('ops')).sort()).toEqual([ours, theirs].sort());

    const missing = await list('team-a', '?after=run_0000');
    const others = await list('team-a', `?after=${theirs}`);
    expect(missing.status).toBe(400);
    expect(others).toEqual({ ...missing, body: missing.body.replace('run_0000', theirs) });
    expect((await list('ops', `?after=${theirs}`)).status).toBe(200);
  });

  it("answers an item_reference to another key's stored item, live or deleted, exactly as one to an item that does not exist", async () => {
    const { url } = await start();
    const post = async (key: string, path: string, body: unknown) => {
      const response = await fetch(`${url}${path}`, { method: 'POST', headers: as(key), body: JSON.stringify(body) });
      return { status: response.status, body: await response.text() };
    };
    const made = JSON.parse((await post('team-a', '/v1/responses', { input: 'my secret' })).body) as {
      id: string;
      output: { id: string }[];
    };
    const inputItem = made.output[0]!.id.replace(/_o0$/, '_i0');
    const missingItem = inputItem.replace(/_[0-9a-f]{32}_/, `_${'0'.repeat(32)}_`);
    const refer = (key: string, path: string, id: string) => {
      const reference = { type: 'item_reference', id };
      const body = path === '/v1/responses' ? { input: [{ role: 'user', content: 'hi' }, reference] } : { items: [reference] };
      return post(key, path, body).then(({ status, body: text }) => ({ status, body: text.replaceAll(id, '<id>') }));
    };

    for (const path of ['/v1/responses', '/v1/conversations']) {
      expect((await refer('team-a', path, inputItem)).status, path).toBe(200);
      expect((await refer('ops', path, inputItem)).status, path).toBe(200);
      const missing = await refer('team-b', path, missingItem);
      expect(missing.status, path).toBe(404);
      expect(await refer('team-b', path, inputItem), path).toEqual(missing);
    }

    expect((await fetch(`${url}/v1/responses/${made.id}`, { method: 'DELETE', headers: as('team-a') })).status).toBe(200);
    const missing = await refer('team-b', '/v1/responses', missingItem);
    expect(await refer('team-b', '/v1/responses', inputItem)).toEqual(missing);
    expect((await refer('team-a', '/v1/responses', inputItem)).body).toContain('item_deleted');
  });

  it('answers /metrics only to an admin key: to any other it is a route that does not exist', async () => {
    const { url } = await start();
    const ask = async (key: string, path: string) => {
      const response = await fetch(`${url}${path}`, { headers: as(key) });
      return { status: response.status, body: (await response.text()).replace(path, '<path>') };
    };
    expect((await ask('team-a', '/v1/models')).status).toBe(200);
    const missing = await ask('team-a', '/no-such-route');
    expect(missing.status).toBe(404);
    for (const key of ['team-a', 'team-b']) expect(await ask(key, '/metrics'), key).toEqual(missing);
    const scraped = await ask('ops', '/metrics');
    expect(scraped.status).toBe(200);
    expect(scraped.body).toContain('rxgate_key_requests_total{key="team-a"}');
  });

  it("treats what was stored before keys (no owner) as default's: hidden from a team key, seen by the admin", async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    await store.runs.save({ id: 'run_old', status: 'completed' });
    app = await startApp(new ScriptedAgent([]), {}, { store, keys: () => teamKeys() });
    expect((await fetch(`${app.url}/v1/runs/run_old`, { headers: as('team-a') })).status).toBe(404);
    expect((await fetch(`${app.url}/v1/runs/run_old`, { headers: as('ops') })).status).toBe(200);
  });
});
