import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { APIError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { UpstreamError } from '../../../src/errors/UpstreamError.js';
import { SqliteStore } from '../../../src/store/sqlite/SqliteStore.js';
import type { Store } from '../../../src/store/Store.js';
import { sharedRedisStores } from '../../support/redisTest.js';
import { type Instance, useInstances } from '../../support/redisInstances.js';
import { finish, say, ScriptedAgent, usage } from '../../support/scriptedAgent.js';
import { answer, frames, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { type SseEvent, sseEvents } from '../../support/sseEvents.js';
import { startApp, type TestApp } from '../../support/startApp.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';
import { as, keyOf, teamKeys } from '../../support/teamKeys.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function start(agent: ScriptedAgent, store: Store = new SqliteStore({ dataDir: ':memory:' })): Promise<TestApp> {
  const app = await startApp(agent, {}, { store, keys: () => teamKeys() });
  closers.unshift(() => app.close());
  return app;
}

const messages = [{ role: 'user' as const, content: 'hi' }];

/** `POST /v1/chat/completions` as `key`, with `Idempotency-Key: idempotencyKey`. */
const complete = (url: string, key: string, idempotencyKey: string, body: Record<string, unknown> = {}, signal?: AbortSignal) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { ...as(key), 'Idempotency-Key': idempotencyKey },
    body: JSON.stringify({ model: 'rxgate-agent', messages, ...body }),
    signal,
  });

const answerOf = async (response: Response) => ({
  status: response.status,
  replayed: response.headers.get('idempotency-replayed'),
  body: (await response.json()) as Record<string, unknown>,
});

/** The data of every SSE frame of a stream, in order (`[DONE]` and error frames included). */
const framesOf = (response: Response): Promise<string[]> => rest(sseEvents(response.body!));

/** The data of the frames of `events` up to the first that `includes` says, leaving the stream open. */
async function readUntil(events: AsyncGenerator<SseEvent>, includes: string): Promise<string[]> {
  const data: string[] = [];
  for (let next = await events.next(); !next.done; next = await events.next()) {
    data.push(next.value.data);
    if (next.value.data.includes(includes)) break;
  }
  return data;
}

/** The data of the rest of the frames of `events`. */
async function rest(events: AsyncGenerator<SseEvent>): Promise<string[]> {
  const data: string[] = [];
  for await (const event of events) data.push(event.data);
  return data;
}

/** The text a chat stream's frames make. */
const textOf = (data: readonly string[]) =>
  data
    .filter((frame) => frame !== '[DONE]')
    .map((frame) => (JSON.parse(frame) as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta?.content ?? '')
    .join('');

const clientOf = (url: string, key: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: keyOf(key), maxRetries: 0 });

describe('Idempotency-Key on a non-streaming POST /v1/chat/completions', () => {
  it('replays the answer as first given, per owner, to the openai client; another request under the key is 422', async () => {
    const agent = new ScriptedAgent([say('hello'), usage(3, 1), finish()]);
    const { url } = await start(agent);
    const teamA = clientOf(url, 'team-a');
    const headers = { 'Idempotency-Key': 'chat-1' };
    const first = await teamA.chat.completions.create({ model: 'rxgate-agent', messages }, { headers }).withResponse();
    expect(first.response.headers.get('idempotency-replayed')).toBeNull();
    expect(first.data.choices[0]?.message.content).toBe('hello');

    const again = await teamA.chat.completions.create({ messages, model: 'rxgate-agent' }, { headers }).withResponse();
    expect(again.response.headers.get('idempotency-replayed')).toBe('true');
    expect(again.data).toEqual(first.data);

    const otherOwner = await clientOf(url, 'team-b')
      .chat.completions.create({ model: 'rxgate-agent', messages }, { headers })
      .withResponse();
    expect(otherOwner.response.headers.get('idempotency-replayed')).toBeNull();
    expect(otherOwner.data.id).not.toBe(first.data.id);

    const mismatch = await teamA.chat.completions
      .create({ model: 'rxgate-agent', messages: [{ role: 'user', content: 'something else' }] }, { headers })
      .catch((error: unknown) => error);
    expect(mismatch).toBeInstanceOf(APIError);
    expect(mismatch).toMatchObject({ status: 422, code: 'idempotency_key_mismatch', param: 'Idempotency-Key' });
    expect(agent.runs).toHaveLength(2);
  });

  it('replays an answer that failed with the status, headers and body it first had', async () => {
    const refusal = new UpstreamError('bad_status', 'refused the request', 400, { upstreamCode: 'content_filter' });
    const agent = new ScriptedAgent([{ fail: refusal }]);
    const { url } = await start(agent);
    const first = await answerOf(await complete(url, 'team-a', 'refused'));
    expect(first).toMatchObject({ status: 400, replayed: null, body: { error: { code: 'content_filter' } } });
    const again = await answerOf(await complete(url, 'team-a', 'refused'));
    expect(again).toEqual({ ...first, replayed: 'true' });
    expect(agent.runs).toHaveLength(1);
  });

  it('keeps nothing of a request refused before it ran: the corrected request runs under the same key', async () => {
    const agent = new ScriptedAgent([say('ok'), finish()]);
    const { url } = await start(agent);
    const orphanResult = [...messages, { role: 'tool', tool_call_id: 'call_nowhere', content: '42' }];
    const refused = await answerOf(await complete(url, 'team-a', 'fixed-later', { messages: orphanResult }));
    expect(refused.status).toBe(400);
    const corrected = await answerOf(await complete(url, 'team-a', 'fixed-later'));
    expect(corrected).toMatchObject({ status: 200, replayed: null });
    const badKey = await answerOf(await complete(url, 'team-a', 'has space'));
    expect(badKey).toMatchObject({ status: 400, body: { error: { code: 'invalid_idempotency_key', param: 'Idempotency-Key' } } });
    expect(agent.runs).toHaveLength(1);
  });
});

describe('Idempotency-Key on a streaming POST /v1/chat/completions', () => {
  it('replays the stream from its first frame while it runs, then live, and whole once it ended: the same bytes, one run', async () => {
    const agent = new ScriptedAgent([say('one '), say('two ', 30), say('three', 30), finish()]);
    const { url } = await start(agent);
    const first = await complete(url, 'team-a', 'stream-1', { stream: true });
    const firstEvents = sseEvents(first.body!);
    const role = (await firstEvents.next()).value as { data: string };
    const live = await complete(url, 'team-a', 'stream-1', { stream: true });
    const original = [role.data];
    for await (const event of firstEvents) original.push(event.data);
    const replayed = await framesOf(live);
    expect(live.headers.get('idempotency-replayed')).toBe('true');
    expect(textOf(original)).toBe('one two three');
    expect(original.at(-1)).toBe('[DONE]');
    expect(replayed).toEqual(original);

    // After the end, through the official client: the same text and chunks.
    const stream = await clientOf(url, 'team-a').chat.completions.create(
      { model: 'rxgate-agent', messages, stream: true },
      { headers: { 'Idempotency-Key': 'stream-1' } },
    );
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks).toEqual(original.slice(0, -1).map((frame) => JSON.parse(frame) as unknown));
    expect(agent.runs).toHaveLength(1);
  });

  it('replays an upstream failure as its error frame', async () => {
    const agent = new ScriptedAgent([say('partial '), { fail: new UpstreamError('dropped', 'dropped the stream') }]);
    const { url } = await start(agent);
    const original = await framesOf(await complete(url, 'team-a', 'broken', { stream: true }));
    expect(JSON.parse(original.at(-1)!)).toMatchObject({ error: { code: 'upstream_dropped' } });
    expect(await framesOf(await complete(url, 'team-a', 'broken', { stream: true }))).toEqual(original);
    expect(agent.runs).toHaveLength(1);
  });
});

describe('Idempotency-Key on POST /v1/chat/completions, durably and across instances', () => {
  it('replays after a restart on the same SQLite file, streaming or not', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rxgate-idem-chat-'));
    const agent = new ScriptedAgent([say('kept '), say('answer'), finish()]);
    let store = new SqliteStore({ dataDir });
    let app = await start(agent, store);
    const json = await answerOf(await complete(app.url, 'team-a', 'durable'));
    const stream = await framesOf(await complete(app.url, 'team-a', 'durable-stream', { stream: true }));
    await app.close();
    await store.close();
    closers.splice(0);
    store = new SqliteStore({ dataDir });
    closers.push(() => store.close());
    app = await start(agent, store);
    expect(await answerOf(await complete(app.url, 'team-a', 'durable'))).toEqual({ ...json, replayed: 'true' });
    expect(await framesOf(await complete(app.url, 'team-a', 'durable-stream', { stream: true }))).toEqual(stream);
    expect(agent.runs).toHaveLength(2);
  });

  it('replays on another instance sharing the Redis, streaming or not', async () => {
    const agent = new ScriptedAgent([say('shared '), say('answer'), finish()]);
    const [one, two] = await Promise.all((await sharedRedisStores(2, closers)).map(async (store) => (await start(agent, store)).url));
    const json = await answerOf(await complete(one!, 'team-a', 'shared'));
    expect(await answerOf(await complete(two!, 'team-a', 'shared'))).toEqual({ ...json, replayed: 'true' });
    const stream = await framesOf(await complete(one!, 'team-a', 'shared-stream', { stream: true }));
    expect(textOf(stream)).toBe('shared answer');
    expect(await framesOf(await complete(two!, 'team-a', 'shared-stream', { stream: true }))).toEqual(stream);
    expect((await complete(two!, 'team-a', 'shared', { messages: [{ role: 'user', content: 'other' }] })).status).toBe(422);
    expect(agent.runs).toHaveLength(2);
  });
});

describe('Idempotency-Key on POST /v1/chat/completions against an upstream', () => {
  const gateway = useLlmGateway();
  const redis = useInstances();

  it('makes one upstream request for fifty identical requests at once, streaming or not', async () => {
    const slow: UpstreamScript = {
      steps: [
        frames.role(),
        { delayMs: 30 },
        frames.text('one '),
        { delayMs: 30 },
        frames.text('two'),
        frames.finish('stop'),
        frames.done(),
      ],
    };
    const { upstream, gateway: app } = await gateway.start([slow], {}, {}, { keys: () => teamKeys() });
    const answers = await Promise.all(Array.from({ length: 50 }, async () => answerOf(await complete(app.url, 'team-a', 'burst'))));
    expect(new Set(answers.map(({ status, body }) => JSON.stringify([status, body]))).size).toBe(1);
    expect(answers[0]).toMatchObject({ status: 200, body: { choices: [{ message: { content: 'one two' } }] } });
    expect(answers.filter(({ replayed }) => replayed === null)).toHaveLength(1);
    expect(upstream.requests).toHaveLength(1);

    const streams = await Promise.all(
      Array.from({ length: 50 }, async () => framesOf(await complete(app.url, 'team-a', 'burst-stream', { stream: true }))),
    );
    expect(new Set(streams.map((stream) => JSON.stringify(stream))).size).toBe(1);
    expect(textOf(streams[0]!)).toBe('one two');
    expect(upstream.requests).toHaveLength(2);
  });

  it('cancels the first stream at once when its client leaves, ends its followers, and a retry with the key runs anew', async () => {
    const stalls: UpstreamScript = { steps: [frames.role(), frames.text('partial'), { stall: true }] };
    const { upstream, gateway: app } = await gateway.start([stalls, answer('fresh')], {}, {}, { keys: () => teamKeys() });
    const leaving = new AbortController();
    const first = await complete(app.url, 'team-a', 'left', { stream: true }, leaving.signal);
    await readUntil(sseEvents(first.body!), 'partial');
    const follower = await complete(app.url, 'team-a', 'left', { stream: true });
    const followed = sseEvents(follower.body!);
    await readUntil(followed, 'partial');

    leaving.abort();
    expect((await upstream.requests[0]!.closed).finished).toBe(false);
    expect((await rest(followed)).map((data) => JSON.parse(data) as unknown)).toEqual([
      { error: expect.objectContaining({ code: 'idempotency_key_in_use', param: 'Idempotency-Key' }) as unknown },
    ]);

    const retry = await complete(app.url, 'team-a', 'left', { stream: true });
    expect(retry.headers.get('idempotency-replayed')).toBeNull();
    expect(textOf(await framesOf(retry))).toBe('fresh');
    expect(upstream.requests).toHaveLength(2);
  });

  it('runs a waiting duplicate itself when the first request of a non-streaming answer is cancelled by its client', async () => {
    // Only a duplicate reads the log of a non-streaming answer: its first read says it is waiting.
    const store = new SqliteStore({ dataDir: ':memory:' });
    const read = store.events.read.bind(store.events);
    let reading!: () => void;
    const waiting = new Promise<void>((resolve) => (reading = resolve));
    store.events.read = (...args) => {
      reading();
      return read(...args);
    };
    const stalls: UpstreamScript = { steps: [frames.role(), { stall: true }] };
    const { upstream, gateway: app } = await gateway.start([stalls, answer('second')], {}, {}, { store, keys: () => teamKeys() });
    const leaving = new AbortController();
    const first = complete(app.url, 'team-a', 'waited', {}, leaving.signal).catch(() => undefined);
    await upstream.request(0);
    const duplicate = complete(app.url, 'team-a', 'waited');
    await waiting;
    leaving.abort();
    await first;
    const answered = await answerOf(await duplicate);
    expect(answered).toMatchObject({ status: 200, replayed: null, body: { choices: [{ message: { content: 'second' } }] } });
    expect(upstream.requests).toHaveLength(2);
  });

  it('follows a stream running on another instance sharing the Redis, live, without a second upstream request', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const script: UpstreamScript = {
      steps: [frames.role(), frames.text('before '), { waitFor: held }, frames.text('after'), frames.finish('stop'), frames.done()],
    };
    const { upstream, instances } = await redis.start([script], 2);
    const [one, two] = instances as [Instance, Instance];
    const request = (url: string) =>
      fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'Idempotency-Key': 'across' },
        body: JSON.stringify({ messages, stream: true }),
      });
    const firstEvents = sseEvents((await request(one.url)).body!);
    const original = await readUntil(firstEvents, 'before');
    const follower = await request(two.url);
    const followed = sseEvents(follower.body!);
    const replayed = await readUntil(followed, 'before');
    release();
    original.push(...(await rest(firstEvents)));
    replayed.push(...(await rest(followed)));
    expect(textOf(original)).toBe('before after');
    expect(replayed).toEqual(original);
    expect(follower.headers.get('idempotency-replayed')).toBe('true');
    expect(upstream.requests).toHaveLength(1);
  });
});
