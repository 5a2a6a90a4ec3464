import fc from 'fast-check';
import { Agent, fetch } from 'undici';
import { describe, expect, it } from 'vitest';
import type { RedisTarget } from '../../src/store/redis/connectRedis.js';
import { useInstances, type Instance } from './redisInstances.js';
import { answer, frames, type UpstreamScript } from './scriptedUpstream.js';
import { sseEvents, type SseEvent } from './sseEvents.js';

/**
 * The followers' HTTP client: a connection pool of their own, so that the leak check can close it
 * (and its sockets' keep-alive timers) before it weighs the heap.
 */
let client = new Agent();

/** Closes the followers' connections and starts a new pool. */
export async function renewClient(): Promise<void> {
  await client.close();
  client = new Agent();
}

export async function createRun(url: string): Promise<string> {
  const response = await fetch(`${url}/v1/runs`, { method: 'POST', body: JSON.stringify({ input: 'hi' }), dispatcher: client });
  expect(response.status).toBe(202);
  return ((await response.json()) as { run_id: string }).run_id;
}

/**
 * Reads run `id`'s events on `instance` after `lastEventId`, until the end or until `stopAfter`
 * events (then it leaves); `attached` is called once the instance answered.
 */
export async function readEvents(
  instance: Instance,
  id: string,
  lastEventId: string | undefined,
  stopAfter = Infinity,
  attached: () => void = () => undefined,
): Promise<SseEvent[]> {
  const controller = new AbortController();
  const response = await fetch(`${instance.url}/v1/runs/${id}/events`, {
    signal: controller.signal,
    headers: lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId },
    dispatcher: client,
  });
  expect(response.status).toBe(200);
  attached();
  const seen: SseEvent[] = [];
  for await (const event of sseEvents(response.body as ReadableStream<Uint8Array>)) {
    seen.push(event);
    if (seen.length >= stopAfter) break;
  }
  controller.abort();
  return seen;
}

const DELTAS = 60;

/** `DELTAS` text deltas, a millisecond apart, once `gate` opens. */
function slowAnswer(gate: Promise<unknown>): UpstreamScript {
  const texts = Array.from({ length: DELTAS }, (_, index) => frames.text(`${index} `));
  return {
    steps: [frames.role(), { waitFor: gate }, ...texts.flatMap((text) => [text, { delayMs: 1 }]), frames.finish('stop'), frames.done()],
  };
}

/**
 * Followers of runs on two instances sharing `target` (read when each test starts): each sees every
 * event once and in order, wherever it follows and resumes. One suite, run on one Redis and on a
 * Redis Cluster.
 */
export function describeFollowers(name: string, target: () => RedisTarget): void {
  describe(`followers of runs on several instances on ${name}`, () => {
    const { start } = useInstances(target);

    it('200 followers across two instances, half reconnecting at random points with Last-Event-ID: each sees every event once, in order', async () => {
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const { instances } = await start([slowAnswer(gate)], 2, { maxFollowersPerRun: 200 });
      const [a, b] = instances as [Instance, Instance];
      const id = await createRun(a.url);
      const expected = Array.from({ length: DELTAS + 1 }, (_, seq) => seq);
      // Where each reconnecting follower leaves: after how many events (fast-check draws them, seeded, so a failure replays).
      const leaveAfter = fc.sample(fc.integer({ min: 1, max: DELTAS }), { numRuns: 100, seed: 14 });

      let attached = 0;
      let allAttached!: () => void;
      const everyoneAttached = new Promise<void>((resolve) => (allAttached = resolve));
      const attach = () => ++attached === 200 && allAttached();
      const followers = Array.from({ length: 200 }, async (_, index) => {
        const first = index % 2 === 0 ? a : b;
        const other = first === a ? b : a;
        if (index >= 100) return readEvents(first, id, undefined, Infinity, attach);
        const before = await readEvents(first, id, undefined, leaveAfter[index]!, attach);
        const after = await readEvents(other, id, before.at(-1)!.id);
        return [...before, ...after];
      });
      // Every follower is attached before the deltas start, so that the reconnections happen while they stream.
      await everyoneAttached;
      open();
      const seen = await Promise.all(followers);

      for (const events of seen) {
        expect(events.map((event) => Number(event.id))).toEqual(expected);
        expect(events.at(-1)!.event).toBe('run.completed');
      }
    }, 60_000);

    it("starts every run at sequence number 0, and a follower of a new run never sees an old run's events", async () => {
      const { instances } = await start([answer('old'), answer('new')], 2);
      const [a, b] = instances as [Instance, Instance];
      const old = await createRun(a.url);
      const oldEvents = await readEvents(b, old, undefined);
      const fresh = await createRun(b.url);
      const freshEvents = await readEvents(a, fresh, undefined);

      expect(oldEvents.map((event) => Number(event.id))).toEqual([0, 1]);
      expect(freshEvents.map((event) => Number(event.id))).toEqual([0, 1]);
      expect(freshEvents.map((event) => event.data).join()).not.toContain('old');
    });
  });
}
