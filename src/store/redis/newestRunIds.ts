import type { RunPage } from '../RunStore.js';
import type { RedisClient } from './connectRedis.js';
import type { RedisKeys } from './redisKeys.js';

interface Entry {
  readonly id: string;
  readonly created: number;
}

const newestFirst = (a: Entry, b: Entry) => b.created - a.created || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The ids of a page of runs of every instance, newest first by `created` (runs of one millisecond,
 * made by different instances, in the order of their ids): the unfinished ones (a set, as many as
 * the cluster runs at once) merged with the head of the settled index. A run that settles
 * meanwhile may be in both: it is listed once. None after an `after` that neither knows.
 */
export async function newestRunIds(redis: RedisClient, keys: RedisKeys, { limit, after }: RunPage): Promise<string[]> {
  // A settled run's hash may have expired while a list pages past it: its index entry still places it.
  const cursorCreated =
    after === undefined ? undefined : ((await redis.hGet(keys.run(after), 'created')) ?? (await redis.zScore(keys.settled('runs'), after)));
  if (after !== undefined && cursorCreated == null) return [];
  const cursor = cursorCreated == null ? undefined : { id: after!, created: Number(cursorCreated) };
  const before = (entry: Entry) => cursor === undefined || newestFirst(cursor, entry) < 0;

  const unfinishedIds = await redis.sMembers(keys.unfinished('runs'));
  const created = await Promise.all(unfinishedIds.map((id) => redis.hGet(keys.run(id), 'created')));
  const unfinished = unfinishedIds.flatMap((id, index) => {
    const at = created[index];
    return at == null ? [] : [{ id, created: Number(at) }];
  });
  // Runs created in the cursor's millisecond come before or after it by id: read past them.
  const ties = cursor === undefined ? 0 : await redis.zCount(keys.settled('runs'), cursor.created, cursor.created);
  const settled = await redis.zRangeWithScores(keys.settled('runs'), cursor?.created ?? '+inf', '-inf', {
    BY: 'SCORE',
    REV: true,
    LIMIT: { offset: 0, count: limit + ties },
  });
  const entries = new Map<string, Entry>();
  for (const entry of [...unfinished, ...settled.map(({ value, score }) => ({ id: value, created: score }))]) entries.set(entry.id, entry);
  return [...entries.values()]
    .filter(before)
    .sort(newestFirst)
    .slice(0, limit)
    .map(({ id }) => id);
}
