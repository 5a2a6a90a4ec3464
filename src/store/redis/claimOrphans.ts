import type { RedisClient } from './connectRedis.js';
import type { RedisKeys } from './redisKeys.js';

/**
 * The unfinished runs (or responses) whose owner instance no longer holds its lease, each claimed
 * by this caller alone (`SREM` answers 1 to one caller only), so that two instances sweeping at
 * once never both end the same run. Returns the claimed ids.
 */
export async function claimOrphans(redis: RedisClient, keys: RedisKeys, kind: 'runs' | 'responses'): Promise<string[]> {
  const ids = await redis.sMembers(keys.unfinished(kind));
  if (ids.length === 0) return [];
  const item = kind === 'runs' ? keys.run.bind(keys) : keys.response.bind(keys);
  const owners = await Promise.all(ids.map((id) => redis.hGet(item(id), 'owner')));
  const alive = new Map<string, boolean>();
  for (const owner of new Set(owners)) if (owner) alive.set(owner, (await redis.exists(keys.instance(owner))) === 1);
  const claimed: string[] = [];
  for (const [index, id] of ids.entries()) {
    const owner = owners[index];
    if (owner && alive.get(owner)) continue;
    if ((await redis.sRem(keys.unfinished(kind), id)) === 1) claimed.push(id);
  }
  return claimed;
}
