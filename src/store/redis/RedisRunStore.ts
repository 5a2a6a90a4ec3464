import { DEFAULT_OWNER } from '../../principal.js';
import type { RetentionPolicy } from '../retentionPolicy.js';
import type { ListedRun, RunPage, RunRecord, RunStore } from '../RunStore.js';
import { claimOrphans, ownedBy, type Claimant } from './claimOrphans.js';
import type { RedisClient } from './connectRedis.js';
import { indexedSave } from './indexedSave.js';
import { newestRunIds } from './newestRunIds.js';
import { readOwner } from './readOwner.js';
import { redisCall } from './redisCall.js';
import type { RedisKeys } from './redisKeys.js';

const UNFINISHED_RUN = new Set(['queued', 'running']);

// A finished run is never taken back to queued or running: a save made while it ran, landing after its end, is refused.
// A finished run and its log get the retention's age as TTL; an unfinished one is kept.
const SAVE = `${ownedBy(1)}
local stored = redis.call('HGET', KEYS[1], 'status')
if ARGV[5] == '0' and stored and stored ~= 'queued' and stored ~= 'running' then return false end
redis.call('HSET', KEYS[1], 'body', ARGV[2], 'status', ARGV[3], 'owner', ARGV[1])
redis.call('HSETNX', KEYS[1], 'created', ARGV[4])
if ARGV[7] ~= '' then redis.call('SET', KEYS[3], ARGV[7], 'NX') end
if ARGV[5] == '1' then
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
  redis.call('PEXPIRE', KEYS[2], ARGV[6])
  redis.call('PEXPIRE', KEYS[3], ARGV[6])
else
  redis.call('PERSIST', KEYS[1])
  redis.call('PERSIST', KEYS[3])
end
return redis.call('HGET', KEYS[1], 'created')`;

/**
 * Runs in Redis, one hash per run (`body`, `status`, `owner`: the instance that saved it,
 * `claims`: how often a sweeper took it over, `created`), and beside it the `principal` that made it. A finished run and its event log expire after the retention's age; the `unfinished`
 * set lists the others, and the `settled` index lets retention trim by count. A save by an
 * instance whose run another one claimed (its lease had lapsed) is dropped: the claimant's
 * `failed` stands. So is an unfinished save of a finished run: its end stands.
 */
export class RedisRunStore implements RunStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly retention: RetentionPolicy,
    private readonly self: Claimant,
  ) {}

  save(run: RunRecord, owner?: string): Promise<void> {
    return redisCall('save a run', async () => {
      const { redis, keys, retention } = this;
      const unfinished = UNFINISHED_RUN.has(run.status);
      await indexedSave(redis, keys, 'runs', run.id, unfinished, () =>
        redis.eval(SAVE, {
          keys: [keys.run(run.id), keys.events(run.id), keys.principal(run.id)],
          arguments: [
            this.self.id,
            JSON.stringify(run),
            run.status,
            String(Date.now()),
            unfinished ? '0' : '1',
            String(retention.maxAgeMs),
            owner ?? '',
          ],
        }),
      );
    });
  }

  owner(id: string): Promise<string | undefined> {
    return redisCall('read a run', () => readOwner(this.redis, this.keys.principal(id), [this.keys.run(id), this.keys.run(id)]));
  }

  get<R extends RunRecord>(id: string): Promise<R | undefined> {
    return redisCall('read a run', async () => {
      const body = await this.redis.hGet(this.keys.run(id), 'body');
      return body ? (JSON.parse(body) as R) : undefined;
    });
  }

  /** The unfinished runs whose instance died (its lease expired): each is handed to one caller only, on whichever instance asks first. */
  unfinished<R extends RunRecord>(): Promise<R[]> {
    return redisCall('read unfinished runs', async () => {
      const ids = await claimOrphans(this.redis, this.keys, 'runs', UNFINISHED_RUN, this.self);
      const bodies = await Promise.all(ids.map((id) => this.redis.hGet(this.keys.run(id), 'body')));
      return bodies.flatMap((body) => (body ? [JSON.parse(body) as R] : []));
    });
  }

  /**
   * Runs of every instance newest first. One whose hash expired between the index and the read is
   * left out, and the index read on past it: a page is short only when no more runs are there.
   */
  list<R extends RunRecord>({ limit, after }: RunPage): Promise<ListedRun<R>[]> {
    return redisCall('list runs', async () => {
      const listed: ListedRun<R>[] = [];
      for (let cursor = after; ;) {
        const wanted = limit - listed.length;
        const ids = await newestRunIds(this.redis, this.keys, { limit: wanted, after: cursor });
        listed.push(...(await this.#read<R>(ids)));
        if (ids.length < wanted || listed.length === limit) return listed;
        cursor = ids.at(-1);
      }
    });
  }

  /** The runs of `ids` still there, in that order. */
  async #read<R extends RunRecord>(ids: readonly string[]): Promise<ListedRun<R>[]> {
    const [bodies, owners] = await Promise.all([
      Promise.all(ids.map((id) => this.redis.hGet(this.keys.run(id), 'body'))),
      Promise.all(ids.map((id) => readOwner(this.redis, this.keys.principal(id), [this.keys.run(id), this.keys.run(id)]))),
    ]);
    return ids.flatMap((_id, index) => {
      const body = bodies[index];
      return body ? [{ run: JSON.parse(body) as R, owner: owners[index] ?? DEFAULT_OWNER }] : [];
    });
  }
}
