import type { RedisClient } from './connectRedis.js';
import type { RedisKeys } from './redisKeys.js';

// The claim is a compare-and-set on the item itself: of two sweepers, or a sweeper and an owner
// that comes back to life, exactly one sees its owner unchanged. It names one key, so it works on
// a Redis Cluster too.
const CLAIM = `
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'owner', ARGV[2])
return 1`;

/**
 * The unfinished runs (or responses) whose owner instance no longer holds its lease, each claimed
 * by this caller alone: the item's `owner` becomes `claimant`, so that two instances sweeping at
 * once never both end the same run, and the old owner's later saves are refused (it is fenced
 * off: see `ownedBy`). Returns the claimed ids.
 */
export async function claimOrphans(redis: RedisClient, keys: RedisKeys, kind: 'runs' | 'responses', claimant: string): Promise<string[]> {
  const ids = await redis.sMembers(keys.unfinished(kind));
  if (ids.length === 0) return [];
  const item = kind === 'runs' ? keys.run.bind(keys) : keys.response.bind(keys);
  const owners = await Promise.all(ids.map((id) => redis.hGet(item(id), 'owner')));
  const alive = new Map<string, boolean>();
  for (const owner of new Set(owners)) if (owner) alive.set(owner, (await redis.exists(keys.instance(owner))) === 1);
  const claimed: string[] = [];
  for (const [index, id] of ids.entries()) {
    const owner = owners[index];
    if (!owner) {
      // Gone (a Redis restarted without persistence): nothing is left to end.
      await redis.sRem(keys.unfinished(kind), id);
      continue;
    }
    if (alive.get(owner)) continue;
    if ((await redis.eval(CLAIM, { keys: [item(id)], arguments: [owner, claimant] })) !== 1) continue;
    await redis.sRem(keys.unfinished(kind), id);
    claimed.push(id);
  }
  return claimed;
}

/**
 * The guard every save of a run or response starts with (`KEYS[1]` the item, `ARGV[n]` this
 * instance): an item another instance has claimed is not this one's to write any more, and the
 * script answers `false` then.
 */
export function ownedBy(instanceArg: number): string {
  return `
local owner = redis.call('HGET', KEYS[1], 'owner')
if owner and owner ~= ARGV[${instanceArg}] then return false end`;
}
