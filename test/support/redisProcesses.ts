import { afterEach, describe, expect, it } from 'vitest';
import type { RedisTarget } from '../../src/store/redis/connectRedis.js';
import { removeKeysUnder, testPrefix } from './redisTest.js';
import { createScriptedUpstream, frames, type ScriptedUpstream } from './scriptedUpstream.js';
import { sseEvents, type SseEvent } from './sseEvents.js';
import { killAll, startCli, type CliProcess } from './startCli.js';

const LEASE_MS = 600;

async function follow(url: string): Promise<AsyncGenerator<SseEvent>> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return sseEvents(response.body!);
}

/**
 * Two rxgate CLI processes configured (`RXGATE_REDIS_URL`, `RXGATE_REDIS_CLUSTER`) for `target`,
 * read when each test starts: one run on one Redis and one on a Redis Cluster.
 */
export function describeRedisProcesses(name: string, target: () => RedisTarget): void {
  describe(`two rxgate processes on ${name}`, () => {
    let processes: CliProcess[] = [];
    let upstream: ScriptedUpstream | undefined;
    let prefix: string | undefined;
    afterEach(async () => {
      await killAll(processes);
      processes = [];
      await upstream?.close();
      if (prefix) await removeKeysUnder(prefix, target());
    });

    it('ends a run of a process killed with SIGKILL mid-run: within the lease, the other marks it failed and its followers get run.failed', async () => {
      upstream = await createScriptedUpstream([{ steps: [frames.role(), frames.text('half an answer'), { stall: true }] }]);
      prefix = testPrefix();
      const env = {
        RXGATE_REDIS_URL: target().url,
        RXGATE_REDIS_CLUSTER: String(target().cluster ?? false),
        RXGATE_REDIS_PREFIX: prefix,
        RXGATE_REDIS_LEASE_MS: String(LEASE_MS),
        RXGATE_UPSTREAM_URL: upstream.baseUrl,
        RXGATE_UPSTREAM_MODEL: 'up-model',
      };
      const [a, b] = await Promise.all([startCli(env), startCli(env)]);
      processes = [a, b];

      const created = await fetch(`${a.url}/v1/runs`, { method: 'POST', body: JSON.stringify({ input: 'hi' }) });
      expect(created.status).toBe(202);
      const { run_id: id } = (await created.json()) as { run_id: string };
      await upstream.request(0);
      const followed = await follow(`${b.url}/v1/runs/${id}/events`);
      const seen: SseEvent[] = [(await followed.next()).value as SseEvent];

      const killedAt = performance.now();
      a.child.kill('SIGKILL');
      for await (const event of followed) seen.push(event);
      console.info(`SIGKILL of A -> B's follower got run.failed: ${(performance.now() - killedAt).toFixed(0)} ms (lease ${LEASE_MS} ms)`);

      expect(seen.map((event) => event.event)).toEqual(['message.delta', 'run.failed']);
      expect(seen.map((event) => Number(event.id))).toEqual([0, 1]);
      expect(await (await fetch(`${b.url}/v1/runs/${id}`)).json()).toMatchObject({ id, status: 'failed', output: 'half an answer' });
    }, 30_000);
  });
}
