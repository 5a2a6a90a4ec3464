import type { RedisClient } from './connectRedis.js';
import type { RedisKeys } from './redisKeys.js';

// The claim is a compare-and-set on the item itself, of its owner and of how many claims it has
// had: of two sweepers, or a sweeper and an owner that comes back to life, exactly one sees both
// unchanged, even when the other is the owner claiming its own item (which leaves the owner as it
// was). It names one key, so it works on a Redis Cluster too.
const CLAIM = `
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
if (redis.call('HGET', KEYS[1], 'claims') or '0') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'owner', ARGV[3])
redis.call('HINCRBY', KEYS[1], 'claims', 1)
return 1`;

/** An instance as a claimant of orphans. */
export interface Claimant {
  readonly id: string;
  /**
   * Whether it runs the items it owns (its coordinator keeps its lease): they are then never
   * orphans to it, even while its lease lapsed (it stalled); another instance claims them, and its
   * coordinator stops them. A store without a coordinator counts as dead, to itself too.
   */
  runsItsOwn: boolean;
}

/**
 * The unfinished runs (or responses) whose owner instance no longer holds its lease, each claimed
 * by this caller alone: the item's `owner` becomes `claimant`'s id, so that two instances sweeping at
 * once never both end the same run, and the old owner's later saves are refused (it is fenced
 * off: see `ownedBy`). Returns the claimed ids. Entries of the `unfinished` index that a save cut
 * short left behind (see `indexedSave`) are dropped: an id without an item, or a settled item.
 */
export async function claimOrphans(
  redis: RedisClient,
  keys: RedisKeys,
  kind: 'runs' | 'responses',
  unfinishedStatuses: ReadonlySet<string>,
  claimant: Claimant,
): Promise<string[]> {
  const unfinished = keys.unfinished(kind);
  const ids = await redis.sMembers(unfinished);
  if (ids.length === 0) return [];
  const item = kind === 'runs' ? keys.run.bind(keys) : keys.response.bind(keys);
  const fields: (string | null | undefined)[][] = await Promise.all(ids.map((id) => redis.hmGet(item(id), ['owner', 'status', 'claims'])));
  const alive = new Map<string, boolean>();
  for (const owner of new Set(fields.map(([owner]) => owner)))
    if (owner) alive.set(owner, (await redis.exists(keys.instance(owner))) === 1);
  const claimed: string[] = [];
  for (const [index, id] of ids.entries()) {
    const [owner, status, claims] = fields[index]!;
    if (!owner) {
      // No item: its save died after indexing it, or Redis lost it (restarted without persistence).
      await redis.sRem(unfinished, id);
      // Unless a save was under way (it indexes, then writes): its item is there now.
      if ((await redis.exists(item(id))) === 1) await redis.sAdd(unfinished, id);
      continue;
    }
    if (!unfinishedStatuses.has(status ?? '')) {
      // Settled by a save that died before taking it out of the index: nothing to end.
      await redis.sRem(unfinished, id);
      continue;
    }
    if (alive.get(owner) || (owner === claimant.id && claimant.runsItsOwn)) continue;
    if ((await redis.eval(CLAIM, { keys: [item(id)], arguments: [owner, claims ?? '0', claimant.id] })) !== 1) continue;
    await redis.sRem(unfinished, id);
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
