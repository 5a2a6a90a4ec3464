import { isCluster, type RedisClient } from './connectRedis.js';

/** The keys matching `pattern`, a batch at a time; on a Redis Cluster from every master, since a SCAN walks one node only. */
export async function* keysMatching(redis: RedisClient, pattern: string): AsyncGenerator<string[]> {
  const nodes = isCluster(redis) ? await Promise.all(redis.masters.map((master) => redis.nodeClient(master))) : [redis];
  for (const node of nodes) yield* node.scanIterator({ MATCH: pattern, COUNT: 1_000 });
}
