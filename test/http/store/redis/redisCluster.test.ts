import { firstValueFrom, skip } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { loadConfig } from '../../../../src/config.js';
import { ConfigError } from '../../../../src/errors/ConfigError.js';
import { isCluster, type RedisTarget } from '../../../../src/store/redis/connectRedis.js';
import { keysMatching } from '../../../../src/store/redis/keysMatching.js';
import { RedisStore } from '../../../../src/store/redis/RedisStore.js';
import { entryId } from '../../../../src/store/redis/streamId.js';
import { startOwnRedisCluster } from '../../../support/ownRedisCluster.js';
import { describeFollowers } from '../../../support/redisFollowers.js';
import { describeRedisProcesses } from '../../../support/redisProcesses.js';
import { describeRedisStorePair } from '../../../support/redisStorePair.js';
import { testPrefix } from '../../../support/redisTest.js';
import { describeSeveralInstances } from '../../../support/severalInstances.js';
import { describeStoreContract } from '../../../support/storeContract.js';

let cluster: Awaited<ReturnType<typeof startOwnRedisCluster>> | undefined;
beforeAll(async () => {
  cluster = await startOwnRedisCluster();
});
// The cluster is the suite's own: its keys go with it.
afterAll(() => cluster?.stop());

const target = (): RedisTarget => ({ url: cluster!.url, cluster: true });

async function openStore() {
  const store = await RedisStore.open({ ...target(), prefix: testPrefix() });
  onTestFinished(() => store.close());
  const { redis } = store;
  if (!isCluster(redis)) throw new Error('a store of a Redis Cluster should hold a cluster client');
  return { store, redis };
}

describeStoreContract('RedisStore on a Redis Cluster', (retention) => RedisStore.open({ ...target(), prefix: testPrefix(), retention }));

describeRedisStorePair('a Redis Cluster', target);

describeSeveralInstances('a Redis Cluster', target);

describeFollowers('a Redis Cluster', target);

describeRedisProcesses('a Redis Cluster', target);

describe('the Redis Cluster settings', () => {
  it('take seed nodes, comma-separated, only with RXGATE_REDIS_CLUSTER, and RXGATE_REDIS_CLUSTER only with a URL', () => {
    const seeds = 'redis://10.0.0.1:7000, redis://10.0.0.2:7000';
    expect(loadConfig({ RXGATE_REDIS_URL: seeds, RXGATE_REDIS_CLUSTER: '1' })).toMatchObject({ redisUrl: seeds, redisCluster: true });
    expect(loadConfig({})).toMatchObject({ redisCluster: false });
    expect(() => loadConfig({ RXGATE_REDIS_URL: seeds })).toThrow(/several URLs.*RXGATE_REDIS_CLUSTER=true/);
    expect(() => loadConfig({ RXGATE_REDIS_CLUSTER: 'true' })).toThrow(/RXGATE_REDIS_CLUSTER needs RXGATE_REDIS_URL/);
    expect(() => loadConfig({ RXGATE_REDIS_URL: 'redis://a:1,nope', RXGATE_REDIS_CLUSTER: 'true' })).toThrow(ConfigError);
  });
});

describe('RedisStore on a Redis Cluster', () => {
  it("keeps each run's keys on one master and spreads runs over all of them, the indexes apart", async () => {
    const { store, redis } = await openStore();
    const ids = Array.from({ length: 12 }, (_, index) => `run_${index}`);
    for (const id of ids) {
      await store.runs.save({ id, status: 'running' });
      await store.events.append(id, [{ seq: 0, type: 'message.delta', data: '{}' }]);
      await store.runs.save({ id, status: 'completed' });
    }

    const nodeOf = new Map<string, number>();
    const { keys } = store;
    for (const [index, master] of redis.masters.entries()) {
      const node = await redis.nodeClient(master);
      for await (const batch of keysMatching(node, `${keys.prefix}*`)) for (const key of batch) nodeOf.set(key, index);
    }
    const runNodes = ids.map((id) => nodeOf.get(keys.run(id)));
    expect(ids.map((id) => nodeOf.get(keys.events(id)))).toEqual(runNodes);
    expect(new Set(runNodes).size).toBe(redis.masters.length);
    expect(nodeOf.has(keys.settled('runs'))).toBe(true);
  });

  it('wakes a follower whose announcement was lost (an entry stored without one), on its periodic re-read', async () => {
    const { store } = await openStore();
    const hints$ = store.events.appended$('run_quiet');
    const watching = firstValueFrom(hints$);
    const later = firstValueFrom(hints$.pipe(skip(1)));
    const subscription = hints$.subscribe();
    onTestFinished(() => subscription.unsubscribe());
    await watching;

    await store.redis.xAdd(store.keys.events('run_quiet'), entryId(0), { type: 'message.delta', data: '{}' });
    await later;
    expect(await store.events.read('run_quiet', -1, 10)).toEqual([{ seq: 0, type: 'message.delta', data: '{}' }]);
  });

  it("unsubscribes a stream's channel when its last follower leaves", async () => {
    const { store, redis } = await openStore();
    const channel = store.keys.appended(store.keys.events('run_left'));
    const node = await redis.getNodeClientForKey(channel);
    const subscribers = async () => ((await node.sendCommand(['PUBSUB', 'SHARDNUMSUB', channel])) as [string, number])[1];
    const hints$ = store.events.appended$('run_left');
    const first = hints$.subscribe();
    const second = hints$.subscribe();
    await firstValueFrom(hints$);
    expect(await subscribers()).toBe(1);

    first.unsubscribe();
    expect(store.watchedStreams).toBe(1);
    second.unsubscribe();
    expect(store.watchedStreams).toBe(0);
    await vi.waitFor(async () => expect(await subscribers()).toBe(0));
  });
});
