import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { heapAfterFinalizers } from '../../../support/heapAfterGc.js';
import { createRun, describeFollowers, readEvents, renewClient } from '../../../support/redisFollowers.js';
import { keysUnder, SHARED_REDIS } from '../../../support/redisTest.js';
import { useInstances, type Instance } from '../../../support/redisInstances.js';
import { answer, type ScriptedUpstream } from '../../../support/scriptedUpstream.js';

describeFollowers('one Redis', () => SHARED_REDIS);

/**
 * node-redis gives every command an `AbortSignal.timeout` of its default command timeout (5 s), whose
 * timer outlives the command: the heap is weighed once the last batch's timers have lapsed and their
 * cleanups have run, or it would count the thousands of commands of the last 5 s; and without the
 * scripted upstream's record of every request it answered (about 1.2 KB a run), which is the test's.
 */
async function heapOnceCommandTimersLapsed(upstream: ScriptedUpstream): Promise<number> {
  await delay(5_500);
  upstream.forgetRequests();
  return heapAfterFinalizers();
}

describe('followers of runs on several instances on one Redis, over time', () => {
  const { start } = useInstances();

  it('leaks nothing: after 2,000 runs followed and abandoned, keys are what retention keeps, connections and heap as before', async () => {
    const { instances, prefix, upstream } = await start(
      [answer('a', 'b', 'c')],
      2,
      { maxConcurrentRuns: 100 },
      { maxItems: 20, maxAgeMs: 60_000, usageMaxAgeMs: 60_000 },
    );
    const [a, b] = instances as [Instance, Instance];
    const connectionsOf = async (instance: Instance) =>
      ((await a.store.redis.clientList()) as { name: string }[]).filter((client) => client.name === `rxgate:${instance.store.instanceId}`)
        .length;
    const followAndAbandon = async (runs: number) => {
      for (let done = 0; done < runs; done += 20) {
        await Promise.all(
          Array.from({ length: 20 }, async (_, index) => {
            const [owner, follower] = index % 2 === 0 ? [a, b] : [b, a];
            const id = await createRun(owner.url);
            await readEvents(follower, id, undefined, 1);
            // Read to the end on the owner: the run is over before the next batch starts.
            await readEvents(owner, id, undefined);
          }),
        );
      }
      // The abandoning followers' subscriptions end when the instances see their connections close.
      await expect.poll(() => a.store.watchedStreams + b.store.watchedStreams).toBe(0);
      await renewClient();
    };
    const connections = [await connectionsOf(a), await connectionsOf(b)];
    await followAndAbandon(500);
    const warmHeap = await heapOnceCommandTimersLapsed(upstream);
    await followAndAbandon(1_500);
    const heapGrowth = (await heapOnceCommandTimersLapsed(upstream)) - warmHeap;

    expect([await connectionsOf(a), await connectionsOf(b)]).toEqual(connections);
    // A reader sees a run's last event before the run is stored as settled and retention's pass after it runs.
    const runKeysNow = async () => (await keysUnder(prefix)).filter((key) => key.endsWith(':run')).length;
    await expect.poll(runKeysNow, { timeout: 10_000 }).toBeLessThanOrEqual(20 + 2);
    const keys = await keysUnder(prefix);
    const runKeys = keys.filter((key) => key.endsWith(':run'));
    const streams = keys.filter((key) => key.endsWith(':events'));
    const principals = keys.filter((key) => key.endsWith(':principal'));
    console.info(
      `after 2,000 runs: ${keys.length} keys (${runKeys.length} runs, ${streams.length} event logs), ` +
        `${connections.join(' + ')} connections, heap ${(heapGrowth / 2 ** 20).toFixed(2)} MiB over the last 1,500 runs`,
    );
    expect(runKeys.length).toBeLessThanOrEqual(20 + 2);
    expect(streams.length).toBeLessThanOrEqual(20 + 2);
    // Who made each run is kept beside it, and goes with it.
    expect(principals.length).toBeLessThanOrEqual(20 + 2);
    expect(keys.length).toBeLessThanOrEqual(3 * 22 + 6);
    // Flat: what 1,500 more runs leave is far below what keeping anything of each would (a run's events and objects are kilobytes).
    expect(heapGrowth).toBeLessThan(4 * 2 ** 20);
  }, 240_000);
});
