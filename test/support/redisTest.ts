import { randomUUID } from 'node:crypto';
import { connectRedis, type RedisTarget } from '../../src/store/redis/connectRedis.js';
import { keysMatching } from '../../src/store/redis/keysMatching.js';
import { silentLogger } from '../../src/logger.js';
import { RedisStore } from '../../src/store/redis/RedisStore.js';

/** The Redis the tests share (`.ci/run` makes sure one answers there); each test keeps to a prefix of its own. */
export const REDIS_URL = process.env.RXGATE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

/** The shared Redis as a target. */
export const SHARED_REDIS: RedisTarget = { url: REDIS_URL };

/** A key prefix no other test uses. */
export function testPrefix(): string {
  return `rxgate-test:${randomUUID().slice(0, 8)}:`;
}

/** Runs `work` with a client of `target` of its own. */
async function withClient<T>(target: RedisTarget, work: (redis: ReturnType<typeof connectRedis>) => Promise<T>): Promise<T> {
  const redis = connectRedis(target, silentLogger, 'rxgate-test');
  await redis.connect();
  try {
    return await work(redis);
  } finally {
    redis.destroy();
  }
}

/** The keys under `prefix` now (on every master of a cluster). */
export async function keysUnder(prefix: string, target = SHARED_REDIS): Promise<string[]> {
  return withClient(target, async (redis) => {
    const keys: string[] = [];
    for await (const batch of keysMatching(redis, `${prefix}*`)) keys.push(...batch);
    return keys;
  });
}

/** Removes every key under `prefix`. */
export async function removeKeysUnder(prefix: string, target = SHARED_REDIS): Promise<void> {
  const keys = await keysUnder(prefix, target);
  if (keys.length === 0) return;
  // One DEL per key: on a cluster, keys of different slots cannot share one.
  await withClient(target, (redis) => Promise.all(keys.map((key) => redis.del(key))));
}

/**
 * `count` stores on the shared Redis under one new prefix, as instances sharing it see it; their
 * closing goes first on `closers` and the prefix's removal last.
 */
export async function sharedRedisStores(count: number, closers: (() => Promise<void>)[]): Promise<RedisStore[]> {
  const prefix = testPrefix();
  closers.push(() => removeKeysUnder(prefix));
  const stores: RedisStore[] = [];
  for (let instance = 0; instance < count; instance++) {
    const store = await RedisStore.open({ ...SHARED_REDIS, prefix });
    closers.unshift(() => store.close());
    stores.push(store);
  }
  return stores;
}
