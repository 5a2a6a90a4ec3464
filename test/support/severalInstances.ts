import { describe, expect, it } from 'vitest';
import { INTERRUPTED_BY_CRASH } from '../../src/detached/interruptedByCrash.js';
import { recoverRuns } from '../../src/runs/recoverRuns.js';
import type { RedisTarget } from '../../src/store/redis/connectRedis.js';
import { useInstances, TEST_LEASE_MS } from './redisInstances.js';
import { answer, frames, type UpstreamScript } from './scriptedUpstream.js';
import { sseEvents, type SseEvent } from './sseEvents.js';

const post = (url: string, body?: unknown) => fetch(url, { method: 'POST', body: body === undefined ? undefined : JSON.stringify(body) });

async function createRun(url: string): Promise<string> {
  const response = await post(`${url}/v1/runs`, { input: 'hi' });
  expect(response.status).toBe(202);
  return ((await response.json()) as { run_id: string }).run_id;
}

/** Follows an SSE URL; `take(n)` resolves with the next n events, `rest()` with all until the end. */
async function follow(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal, headers });
  expect(response.status).toBe(200);
  const events = sseEvents(response.body!);
  const seen: SseEvent[] = [];
  return {
    seen,
    async take(count: number) {
      while (seen.length < count) {
        const { value, done } = await events.next();
        if (done) break;
        seen.push(value);
      }
      return seen.slice(0, count);
    },
    async rest() {
      for await (const event of events) seen.push(event);
      return seen;
    },
    leave: () => controller.abort(),
  };
}

/** An answer of `texts` that waits for `gate` after the first `before` of them. */
function gatedAnswer(texts: readonly string[], before: number, gate: Promise<unknown>): UpstreamScript {
  return {
    steps: [
      frames.role(),
      ...texts.slice(0, before).map(frames.text),
      { waitFor: gate },
      ...texts.slice(before).map(frames.text),
      frames.finish('stop'),
      frames.usage(10, texts.length),
      frames.done(),
    ],
  };
}

const stalled: UpstreamScript = { steps: [{ stall: true }] };
const ids = (events: readonly SseEvent[]) => events.map((event) => Number(event.id));

/**
 * What two rxgate instances sharing `target` (read when each test starts) must do: follow, stop,
 * recover and cap each other's runs. One suite, run against one Redis and a Redis Cluster.
 */
export function describeSeveralInstances(name: string, target: () => RedisTarget): void {
  describe(`several instances on ${name}`, () => {
    const { start } = useInstances(target);

    it('follows a run started on A from B, from the start and from a Last-Event-ID: each event once, in order, then the end', async () => {
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const texts = ['a', 'b', 'c', 'd', 'e'];
      const { instances } = await start([gatedAnswer(texts, 3, gate)], 2);
      const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
      const id = await createRun(a.url);

      const whole = await follow(`${b.url}/v1/runs/${id}/events`);
      expect((await whole.take(3)).map((event) => JSON.parse(event.data) as { delta: string })).toMatchObject([
        { delta: 'a' },
        { delta: 'b' },
        { delta: 'c' },
      ]);
      expect(await (await fetch(`${b.url}/v1/runs/${id}`)).json()).toMatchObject({ id, status: 'running', output: 'abc' });
      const resumed = await follow(`${b.url}/v1/runs/${id}/events`, { 'Last-Event-ID': '1' });
      expect(ids(await resumed.take(1))).toEqual([2]);
      open();

      const all = await whole.rest();
      const tail = await resumed.rest();
      expect(all.map((event) => event.event)).toEqual([...texts.map(() => 'message.delta'), 'run.completed']);
      expect(ids(all)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(ids(tail)).toEqual([2, 3, 4, 5]);
      expect(await (await fetch(`${b.url}/v1/runs/${id}`)).json()).toMatchObject({ id, status: 'completed', output: 'abcde' });
    });

    it('lists on B the runs A made, finished and running, newest first', async () => {
      const { instances } = await start([answer('done'), stalled], 2);
      const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
      const finished = await createRun(a.url);
      await (await follow(`${a.url}/v1/runs/${finished}/events`)).rest();
      const running = await createRun(a.url);
      const page = (await (await fetch(`${b.url}/v1/runs`)).json()) as { data: { id: string; status: string }[] };
      expect(page.data.filter(({ id }) => id === finished || id === running).map(({ id, status }) => [id, status])).toEqual([
        [running, 'running'],
        [finished, 'completed'],
      ]);
    });

    it('follows a background response created on A from B with starting_after', async () => {
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const { instances } = await start([gatedAnswer(['x', 'y', 'z'], 1, gate)], 2);
      const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
      const created = await post(`${a.url}/v1/responses`, { input: 'hi', background: true });
      expect(created.status).toBe(200);
      const { id } = (await created.json()) as { id: string };

      const first = await follow(`${b.url}/v1/responses/${id}?stream=true`);
      const seenBefore = await first.take(3);
      const cursor = Number(seenBefore.at(-1)!.id);
      const resumed = await follow(`${b.url}/v1/responses/${id}?stream=true&starting_after=${cursor}`);
      open();
      const all = await first.rest();
      const tail = await resumed.rest();

      expect(all.at(-1)!.event).toBe('response.completed');
      expect(ids(all)).toEqual(all.map((_, index) => index));
      expect(ids(tail)).toEqual(ids(all).filter((seq) => seq > cursor));
      expect(await (await fetch(`${b.url}/v1/responses/${id}`)).json()).toMatchObject({ id, status: 'completed' });
    });

    it('stops on B a run that A runs against a silent upstream: the upstream request on A is aborted, B answers cancelled', async () => {
      const { upstream, instances } = await start([stalled], 2);
      const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
      const id = await createRun(a.url);
      const request = await upstream.request(0);
      const follower = await follow(`${a.url}/v1/runs/${id}/events`);

      const stoppedAt = performance.now();
      const stopped = await post(`${b.url}/v1/runs/${id}/stop`);
      expect(stopped.status).toBe(200);
      expect(await stopped.json()).toMatchObject({ id, status: 'cancelled' });
      const closed = await request.closed;
      expect(closed.finished).toBe(false);
      console.info(`stop on B -> upstream socket closed on A: ${(closed.at - stoppedAt).toFixed(2)} ms`);
      expect((await follower.rest()).map((event) => event.event)).toEqual(['run.cancelled']);

      const again = await post(`${b.url}/v1/runs/${id}/stop`);
      expect(again.status).toBe(409);
      expect(((await again.json()) as { error: { code: string } }).error.code).toBe('run_not_running');
      expect((await post(`${b.url}/v1/runs/run_unknown/stop`)).status).toBe(404);
    });

    it("marks a run failed from B when A dies (its heartbeat stops), and B's followers get the terminal event", async () => {
      const { upstream, instances } = await start([stalled], 2);
      const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
      const id = await createRun(a.url);
      await upstream.request(0);
      const follower = await follow(`${b.url}/v1/runs/${id}/events`);

      const diedAt = performance.now();
      await a.coordinator.close();
      const events = await follower.rest();
      const noticed = performance.now() - diedAt;
      console.info(`A's heartbeat stopped -> B's follower got run.failed: ${noticed.toFixed(0)} ms (lease ${TEST_LEASE_MS} ms)`);

      expect(events.map((event) => event.event)).toEqual(['run.failed']);
      expect(JSON.parse(events[0]!.data)).toMatchObject({ error: { message: `rxgate: ${INTERRUPTED_BY_CRASH}` } });
      expect(noticed).toBeLessThan(TEST_LEASE_MS * 4);
      expect(await (await fetch(`${b.url}/v1/runs/${id}`)).json()).toMatchObject({ id, status: 'failed' });
    });

    it("fences off A when its lease lapsed and B took its run over: A stops the run (its upstream request aborted), B's failed stands", async () => {
      const { upstream, instances } = await start([stalled], 2);
      const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
      const id = await createRun(a.url);
      const request = await upstream.request(0);
      const follower = await follow(`${b.url}/v1/runs/${id}/events`);

      // A stalls past its lease: its lease key is gone, and B's sweep claims the run before A's next heartbeat.
      for (let tries = 0; (await b.store.runs.get(id))?.status !== 'failed'; tries++) {
        expect(tries).toBeLessThan(20);
        await b.store.redis.del(b.store.keys.instance(a.store.instanceId));
        await recoverRuns(b.store);
      }
      const closed = await request.closed;
      expect(closed.finished).toBe(false);
      await a.activeRuns.settled();

      const crashed = { status: 'failed', error: { message: `rxgate: ${INTERRUPTED_BY_CRASH}` } };
      expect(await (await fetch(`${a.url}/v1/runs/${id}`)).json()).toMatchObject(crashed);
      expect(await (await fetch(`${b.url}/v1/runs/${id}`)).json()).toMatchObject(crashed);
      expect((await follower.rest()).map((event) => event.event)).toEqual(['run.failed']);
      expect((await b.store.events.read(id, -1, 100)).map((event) => event.type)).toEqual(['run.failed']);
    });

    it('continues on B a conversation stored on A (previous_response_id)', async () => {
      const { upstream, instances } = await start(
        [
          { steps: [frames.role(), frames.text('Hello Ada'), frames.finish('stop'), frames.done()] },
          { steps: [frames.role(), frames.text('Ada'), frames.finish('stop'), frames.done()] },
        ],
        2,
      );
      const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
      const first = (await (await post(`${a.url}/v1/responses`, { input: 'I am Ada' })).json()) as { id: string };
      const second = await post(`${b.url}/v1/responses`, { input: 'Who am I?', previous_response_id: first.id });
      expect(second.status).toBe(200);
      expect((await upstream.request(1)).body.messages).toEqual([
        { role: 'user', content: 'I am Ada' },
        { role: 'assistant', content: 'Hello Ada' },
        { role: 'user', content: 'Who am I?' },
      ]);
    });

    it('caps runs across instances: a run on A takes the one slot, B refuses the next with 429 until it ends', async () => {
      const { upstream, instances } = await start([stalled], 2, { maxConcurrentRuns: 1 });
      const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
      const id = await createRun(a.url);
      await upstream.request(0);

      const refused = await post(`${b.url}/v1/runs`, { input: 'hi' });
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('too_many_runs');
      expect((await post(`${b.url}/v1/runs/${id}/stop`)).status).toBe(200);
      // The stop is recorded at once; A ends the run and frees its slot a moment later.
      await expect.poll(async () => (await post(`${b.url}/v1/runs`, { input: 'hi' })).status, { timeout: 5_000 }).toBe(202);
    });
  });
}
