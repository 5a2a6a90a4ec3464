import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../../src/agent/agent.js';
import { InterruptReason } from '../../../src/agent/interruptReason.js';
import { UpstreamError } from '../../../src/errors/UpstreamError.js';
import type { AppConfig } from '../../../src/http/createApp.js';
import type { ResponseObject } from '../../../src/openai/responseObject.js';
import { SqliteStore } from '../../../src/store/sqlite/SqliteStore.js';
import type { Store } from '../../../src/store/Store.js';
import { sharedRedisStores } from '../../support/redisTest.js';
import { ManualAgent } from '../../support/manualAgent.js';
import { finish, say, ScriptedAgent } from '../../support/scriptedAgent.js';
import { type SseEvent, sseEvents } from '../../support/sseEvents.js';
import { startApp, type TestApp } from '../../support/startApp.js';
import { as, teamKeys } from '../../support/teamKeys.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function start(agent: Agent, store: Store, config: Partial<AppConfig> = {}): Promise<TestApp> {
  const app = await startApp(agent, config, { store, keys: () => teamKeys() });
  closers.unshift(() => app.close());
  return app;
}

/** Two instances of `agent` sharing one Redis (under a key prefix of this test): their urls. */
async function startTwoOnRedis(agent: ScriptedAgent): Promise<string[]> {
  const urls: string[] = [];
  for (const store of await sharedRedisStores(2, closers)) urls.push((await start(agent, store)).url);
  return urls;
}

const createRun = (url: string, key: string, input: unknown, idempotencyKey?: string) =>
  fetch(`${url}/v1/runs`, {
    method: 'POST',
    headers: { ...as(key), ...(idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey }) },
    body: JSON.stringify(input),
  });

const answerOf = async (response: Response) => ({
  status: response.status,
  replayed: response.headers.get('idempotency-replayed'),
  body: (await response.json()) as { run_id?: string; error?: { code: string; param: string | null } },
});

describe('Idempotency-Key on POST /v1/runs', () => {
  it('replays the same request with the first run_id, per owner; a different request is 422; a bad key 400', async () => {
    const agent = new ScriptedAgent([say('ok'), finish()]);
    const { url } = await start(agent, new SqliteStore({ dataDir: ':memory:' }));
    const first = await answerOf(await createRun(url, 'team-a', { input: 'hi', model: 'rxgate-agent' }, 'retry-1'));
    expect(first).toMatchObject({ status: 202, replayed: null });
    const again = await answerOf(await createRun(url, 'team-a', { model: 'rxgate-agent', input: 'hi' }, 'retry-1'));
    expect(again).toMatchObject({ status: 202, replayed: 'true', body: { run_id: first.body.run_id } });

    const otherOwner = await answerOf(await createRun(url, 'team-b', { input: 'hi', model: 'rxgate-agent' }, 'retry-1'));
    expect(otherOwner.replayed).toBeNull();
    expect(otherOwner.body.run_id).not.toBe(first.body.run_id);

    const mismatch = await answerOf(await createRun(url, 'team-a', { input: 'something else' }, 'retry-1'));
    expect(mismatch).toMatchObject({ status: 422, body: { error: { code: 'idempotency_key_mismatch', param: 'Idempotency-Key' } } });
    for (const bad of ['', 'has space', 'x'.repeat(256), 'é']) {
      const refused = await answerOf(await createRun(url, 'team-a', { input: 'hi' }, bad));
      expect(refused, JSON.stringify(bad)).toMatchObject({ status: 400, body: { error: { code: 'invalid_idempotency_key' } } });
    }
    expect((await createRun(url, 'team-a', { input: 'hi' }, 'x'.repeat(255))).status).toBe(202);
    expect(agent.runs).toHaveLength(3);
  });

  it('starts one run for fifty identical requests at once', async () => {
    const agent = new ScriptedAgent([say('ok'), finish()]);
    const { url } = await start(agent, new SqliteStore({ dataDir: ':memory:' }));
    const answers = await Promise.all(
      Array.from({ length: 50 }, async () => answerOf(await createRun(url, 'team-a', { input: 'hi' }, 'burst'))),
    );
    expect(new Set(answers.map((answer) => answer.body.run_id)).size).toBe(1);
    expect(answers.filter((answer) => answer.replayed === null)).toHaveLength(1);
    expect(answers.every((answer) => answer.status === 202)).toBe(true);
    expect(agent.runs).toHaveLength(1);
  });

  it('replays after a restart on the same SQLite file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rxgate-idem-'));
    const agent = new ScriptedAgent([say('ok'), finish()]);
    let store = new SqliteStore({ dataDir });
    let app = await start(agent, store);
    const first = await answerOf(await createRun(app.url, 'team-a', { input: 'hi' }, 'durable'));
    // Stored as it ended, not only shown so: the restart must find it there.
    await expect.poll(async () => (await store.runs.get(first.body.run_id!))?.status).toBe('completed');
    await app.close();
    await store.close();
    closers.splice(0);
    store = new SqliteStore({ dataDir });
    closers.push(() => store.close());
    app = await start(agent, store);
    const replayed = await answerOf(await createRun(app.url, 'team-a', { input: 'hi' }, 'durable'));
    expect(replayed).toEqual({ status: 202, replayed: 'true', body: { run_id: first.body.run_id, status: 'completed' } });
    expect(agent.runs).toHaveLength(1);
  });

  it('keeps no key for a run refused before it started (429 too_many_runs): the retry starts the run', async () => {
    const agent = new ManualAgent();
    const store = new SqliteStore({ dataDir: ':memory:' });
    const { url } = await start(agent, store, { maxConcurrentRuns: 1 });
    const busy = await answerOf(await createRun(url, 'team-a', { input: 'first' }));
    const refused = await answerOf(await createRun(url, 'team-a', { input: 'hi' }, 'after-429'));
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'too_many_runs' } } });
    (await agent.started(0)).events.complete();
    // Stored as ended: its slot is free.
    await expect.poll(async () => (await store.runs.get(busy.body.run_id!))?.status).toBe('completed');

    const retried = await answerOf(await createRun(url, 'team-a', { input: 'hi' }, 'after-429'));
    expect(retried).toMatchObject({ status: 202, replayed: null });
    expect((await fetch(`${url}/v1/runs/${retried.body.run_id}`, { headers: as('team-a') })).status).toBe(200);
    (await agent.started(1)).events.complete();
  });

  it.each([
    ['SQLite', async () => new SqliteStore({ dataDir: ':memory:' })],
    ['Redis', async () => (await sharedRedisStores(1, closers))[0]!],
  ])(
    'gives thirty duplicates of a run refused before it started the refusal or a retry, never a run that was not made (%s)',
    async (_name, storeOf) => {
      const agent = new ManualAgent();
      const { url } = await start(agent, await storeOf(), { maxConcurrentRuns: 1 });
      await answerOf(await createRun(url, 'team-a', { input: 'busy' }));
      const answers = await Promise.all(
        Array.from({ length: 30 }, async () => answerOf(await createRun(url, 'team-a', { input: 'hi' }, 'refused-all'))),
      );

      for (const answer of answers) {
        expect([429, 409]).toContain(answer.status);
        expect(answer.body.error!.code).toBe(answer.status === 429 ? 'too_many_runs' : 'idempotency_key_in_use');
      }
      (await agent.started(0)).events.complete();
    },
  );

  it('replays on another instance sharing the Redis', async () => {
    const agent = new ScriptedAgent([say('ok'), finish()]);
    const urls = await startTwoOnRedis(agent);
    const first = await answerOf(await createRun(urls[0]!, 'team-a', { input: 'hi' }, 'shared'));
    const elsewhere = await answerOf(await createRun(urls[1]!, 'team-a', { input: 'hi' }, 'shared'));
    expect(elsewhere).toMatchObject({ status: 202, replayed: 'true', body: { run_id: first.body.run_id } });
    const mismatch = await answerOf(await createRun(urls[1]!, 'team-a', { input: 'other' }, 'shared'));
    expect(mismatch.status).toBe(422);
    expect(agent.runs).toHaveLength(1);
  });
});

const createResponse = (url: string, key: string, input: Record<string, unknown>, idempotencyKey?: string) =>
  fetch(`${url}/v1/responses`, {
    method: 'POST',
    headers: { ...as(key), ...(idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey }) },
    body: JSON.stringify({ model: 'rxgate-agent', ...input }),
  });

/** The event types of a Responses stream (read to its end or from where `events` stand), and the text its deltas make. */
async function streamedOf(events: AsyncGenerator<SseEvent>) {
  const frames: { type: string; delta?: string }[] = [];
  for await (const event of events) frames.push(JSON.parse(event.data) as { type: string; delta?: string });
  const text = frames.map((frame) => (frame.type === 'response.output_text.delta' ? frame.delta : '')).join('');
  return { types: frames.map((frame) => frame.type), text };
}

describe('Idempotency-Key on POST /v1/responses', () => {
  it('replays a stored response as first answered, per owner; a different request is 422', async () => {
    const agent = new ScriptedAgent([say('hello '), say('there'), finish()]);
    const { url } = await start(agent, new SqliteStore({ dataDir: ':memory:' }));
    const first = await createResponse(url, 'team-a', { input: 'hi' }, 'resp-1');
    const firstBody = (await first.json()) as { id: string; status: string };
    expect([first.status, first.headers.get('idempotency-replayed'), firstBody.status]).toEqual([200, null, 'completed']);

    const again = await createResponse(url, 'team-a', { input: 'hi' }, 'resp-1');
    expect([again.status, again.headers.get('idempotency-replayed')]).toEqual([200, 'true']);
    expect(await again.json()).toEqual(firstBody);

    const otherOwner = (await (await createResponse(url, 'team-b', { input: 'hi' }, 'resp-1')).json()) as { id: string };
    expect(otherOwner.id).not.toBe(firstBody.id);
    const mismatch = await answerOf(await createResponse(url, 'team-a', { input: 'something else' }, 'resp-1'));
    expect(mismatch).toMatchObject({ status: 422, body: { error: { code: 'idempotency_key_mismatch', param: 'Idempotency-Key' } } });
    expect(agent.runs).toHaveLength(2);
  });

  it('replays a response that failed with the HTTP error first answered: status, headers and body', async () => {
    const agent = new ScriptedAgent([{ fail: new UpstreamError('first_token_timeout', 'sent no token in time') }]);
    const { url } = await start(agent, new SqliteStore({ dataDir: ':memory:' }));
    const answered = async (response: Response) => ({
      status: response.status,
      replayed: response.headers.get('idempotency-replayed'),
      body: (await response.json()) as unknown,
    });
    const first = await answered(await createResponse(url, 'team-a', { input: 'hi' }, 'failing'));
    expect(first).toMatchObject({ status: 504, replayed: null, body: { error: { code: 'upstream_first_token_timeout' } } });
    const again = await answered(await createResponse(url, 'team-a', { input: 'hi' }, 'failing'));
    expect(again).toEqual({ ...first, replayed: 'true' });
    expect(agent.runs).toHaveLength(1);
  });

  it('is 409 idempotency_key_in_use while the first request has not stored its response yet', async () => {
    const agent = new ScriptedAgent([say('ok'), finish()]);
    const store = new SqliteStore({ dataDir: ':memory:' });
    const save = store.responses.save.bind(store.responses);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const saving = new Promise<void>((resolve) => (entered = resolve));
    store.responses.save = async (...args) => {
      entered();
      await released;
      return save(...args);
    };
    const { url } = await start(agent, store);
    const first = createResponse(url, 'team-a', { input: 'hi' }, 'early');
    await saving;
    const early = await answerOf(await createResponse(url, 'team-a', { input: 'hi' }, 'early'));
    expect(early).toMatchObject({ status: 409, body: { error: { code: 'idempotency_key_in_use', param: 'Idempotency-Key' } } });
    release();
    const firstBody = (await (await first).json()) as { id: string };
    expect(await (await createResponse(url, 'team-a', { input: 'hi' }, 'early')).json()).toEqual(firstBody);
    expect(agent.runs).toHaveLength(1);
  });

  it('refuses the header, naming it, where nothing is kept to replay: store: false', async () => {
    const agent = new ScriptedAgent([say('ok'), finish()]);
    const { url } = await start(agent, new SqliteStore({ dataDir: ':memory:' }));
    const refused = await answerOf(await createResponse(url, 'team-a', { input: 'hi', store: false }, 'unkept'));
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'unsupported_idempotency_key', param: 'Idempotency-Key' } } });
    expect(agent.runs).toHaveLength(0);
  });

  it('replays a foreground stream from its first event while it runs, then live, and whole once it ended, with no second run', async () => {
    const agent = new ScriptedAgent([say('one '), say('two ', 20), say('three', 20), finish()]);
    const { url } = await start(agent, new SqliteStore({ dataDir: ':memory:' }));
    const request = { input: 'hi', stream: true };
    const firstEvents = sseEvents((await createResponse(url, 'team-a', request, 'foreground')).body!);
    const created = (await firstEvents.next()).value as SseEvent;
    expect(created).toMatchObject({ event: 'response.created' });
    const live = await createResponse(url, 'team-a', request, 'foreground');
    const original = await streamedOf(firstEvents);
    const replayed = await streamedOf(sseEvents(live.body!));
    expect(live.headers.get('idempotency-replayed')).toBe('true');
    expect(replayed.text).toBe('one two three');
    expect(original.text).toBe(replayed.text);
    expect(replayed.types).toEqual(['response.created', ...original.types]);
    const after = await streamedOf(sseEvents((await createResponse(url, 'team-a', request, 'foreground')).body!));
    expect(after).toEqual(replayed);
    expect(agent.runs).toHaveLength(1);
  });

  it('gives the key up when the client of a foreground stream leaves: its followers see it incomplete, a retry runs anew', async () => {
    const agent = new ScriptedAgent([say('partial '), { silent: true }]);
    const { url } = await start(agent, new SqliteStore({ dataDir: ':memory:' }));
    const request = { input: 'hi', stream: true };
    const leaving = new AbortController();
    const first = await fetch(`${url}/v1/responses`, {
      method: 'POST',
      headers: { ...as('team-a'), 'Idempotency-Key': 'left' },
      body: JSON.stringify({ model: 'rxgate-agent', ...request }),
      signal: leaving.signal,
    });
    const firstEvents = sseEvents(first.body!);
    while (((await firstEvents.next()).value as SseEvent).event !== 'response.output_text.delta');
    const followed = sseEvents((await createResponse(url, 'team-a', request, 'left')).body!);
    while (((await followed.next()).value as SseEvent).event !== 'response.output_text.delta');
    leaving.abort();
    expect((await agent.runs[0]!.interrupted).reason).toBe(InterruptReason.clientDisconnected);
    const ending = await streamedOf(followed);
    // Its followers' stream ends as its client's would have: the open message closed, then the terminal event.
    expect(ending.types.slice(-4)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.incomplete',
    ]);

    const retry = await createResponse(url, 'team-a', request, 'left');
    expect(retry.headers.get('idempotency-replayed')).toBeNull();
    const retried = sseEvents(retry.body!);
    while (((await retried.next()).value as SseEvent).event !== 'response.output_text.delta');
    expect(agent.runs).toHaveLength(2);
    await retried.return(undefined);
  });

  it('replays a background stream from its first event, then live, with the same text and no second run', async () => {
    const agent = new ScriptedAgent([say('one '), say('two ', 20), say('three', 20), finish()]);
    const { url } = await start(agent, new SqliteStore({ dataDir: ':memory:' }));
    const request = { input: 'hi', background: true, stream: true };
    const first = await createResponse(url, 'team-a', request, 'stream-1');
    // The replay starts while the first still streams: what was logged, then what follows.
    const firstEvents = sseEvents(first.body!);
    expect((await firstEvents.next()).value).toMatchObject({ event: 'response.created' });
    const replay = await createResponse(url, 'team-a', request, 'stream-1');
    const original = await streamedOf(firstEvents);
    const replayed = await streamedOf(sseEvents(replay.body!));
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replayed.text).toBe('one two three');
    expect(original.text).toBe(replayed.text);
    expect(replayed.types).toEqual(['response.created', ...original.types]);
    expect(agent.runs).toHaveLength(1);
  });

  it('keeps no key for a background response refused before it started (429 too_many_runs): the retry runs it', async () => {
    const agent = new ManualAgent();
    const store = new SqliteStore({ dataDir: ':memory:' });
    const { url } = await start(agent, store, { maxConcurrentRuns: 1 });
    const busy = (await (await createResponse(url, 'team-a', { input: 'first', background: true })).json()) as { id: string };
    const refused = await answerOf(await createResponse(url, 'team-a', { input: 'hi', background: true }, 'after-429'));
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'too_many_runs' } } });
    (await agent.started(0)).events.complete();
    await expect.poll(() => store.responses.get<ResponseObject>(busy.id)).toMatchObject({ response: { status: 'completed' } });

    // Until the first has given its slot back, each retry is another 429 (which keeps no key either).
    const retry = () => createResponse(url, 'team-a', { input: 'hi', background: true }, 'after-429');
    let retried = await retry();
    while (retried.status === 429) retried = await retry();
    expect([retried.status, retried.headers.get('idempotency-replayed')]).toEqual([200, null]);
    expect(((await retried.json()) as { status: string }).status).toBe('queued');
    (await agent.started(1)).events.complete();
  });

  it('makes one upstream run for fifty identical requests at once', async () => {
    const agent = new ScriptedAgent([say('ok'), finish()]);
    const { url } = await start(agent, new SqliteStore({ dataDir: ':memory:' }));
    const answers = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const response = await createResponse(url, 'team-a', { input: 'hi' }, 'burst');
        return {
          status: response.status,
          replayed: response.headers.get('idempotency-replayed'),
          body: (await response.json()) as { id: string },
        };
      }),
    );
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(answers.filter((answer) => answer.replayed === null)).toHaveLength(1);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(agent.runs).toHaveLength(1);
  });

  it('replays on another instance sharing the Redis', async () => {
    const agent = new ScriptedAgent([say('ok'), finish()]);
    const urls = await startTwoOnRedis(agent);
    const first = (await (await createResponse(urls[0]!, 'team-a', { input: 'hi' }, 'shared')).json()) as { id: string };
    const elsewhere = await createResponse(urls[1]!, 'team-a', { input: 'hi' }, 'shared');
    expect(elsewhere.headers.get('idempotency-replayed')).toBe('true');
    expect(await elsewhere.json()).toEqual(first);
    expect(agent.runs).toHaveLength(1);
  });
});
