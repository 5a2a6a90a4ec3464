import type { RedisClient } from './connectRedis.js';
import type { RedisKeys } from './redisKeys.js';

/**
 * Runs `save`, the script that writes run or response `id` (its keys share one slot, and it
 * answers the item's `created`, or null when the save was refused), and keeps the indexes that
 * span items (`unfinished`, `settled`: keys of their own, in other slots of a Redis Cluster) in
 * step with it. No command can cover both, so the order is what keeps recovery right whenever the
 * process dies between two of them: the `unfinished` index always holds every unfinished item.
 *
 * - Unfinished: indexed, written, indexed again. Dying after the first leaves an id without an
 *   item, which a sweeper drops (`claimOrphans`); the second undoes a sweeper that dropped the id
 *   in between because it saw no item yet.
 * - Settled: written (with its TTL), indexed as settled, then out of `unfinished`. Dying before
 *   the last leaves a settled item in `unfinished`, which a sweeper drops without ending it; dying
 *   before the second leaves an item that only its TTL, not the count, evicts.
 */
export async function indexedSave(
  redis: RedisClient,
  keys: RedisKeys,
  kind: 'runs' | 'responses',
  id: string,
  unfinished: boolean,
  save: () => Promise<unknown>,
): Promise<void> {
  if (unfinished) await redis.sAdd(keys.unfinished(kind), id);
  const created = await save();
  // Refused: another instance claimed the item (this one's lease had lapsed), and its `failed` stands.
  if (created === null || created === undefined) return;
  if (unfinished) {
    await redis.sAdd(keys.unfinished(kind), id);
    return;
  }
  await redis.zAdd(keys.settled(kind), { score: Number(created), value: id });
  await redis.sRem(keys.unfinished(kind), id);
}
