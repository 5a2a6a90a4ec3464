import { FIRES_KEPT, type JobFire, type JobRecord, type JobStore, type StoredJob } from '../JobStore.js';
import type { RedisClient } from './connectRedis.js';
import { redisCall } from './redisCall.js';
import type { RedisKeys } from './redisKeys.js';

// One script, so that two instances asking for the same slot at once get one yes.
const CLAIM = `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local last = redis.call('HGET', KEYS[1], 'last_slot')
if last and tonumber(last) >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'last_slot', ARGV[1])
return 1`;

// One script, so that a fire is kept only while its job is there: a delete takes the job and its fires at once.
const RECORD = `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('LPUSH', KEYS[2], ARGV[1])
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[2]) - 1)
return 1`;

const toStoredJob = (body: string | undefined | null, lastSlot: string | undefined | null): StoredJob | undefined =>
  body ? { ...(JSON.parse(body) as JobRecord), last_slot: lastSlot ? Number(lastSlot) : null } : undefined;

/**
 * Jobs in Redis: a hash each (`body`, `last_slot`), its fires in a list beside it (one slot of a
 * cluster), and the `jobs` index of every id. The index is written after the job and cleared before
 * it goes, so that a listed id whose job is missing is only ever a moment's.
 */
export class RedisJobStore implements JobStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
  ) {}

  save(job: JobRecord): Promise<void> {
    return redisCall('save a job', async () => {
      await this.redis.hSet(this.keys.job(job.id), 'body', JSON.stringify(job));
      await this.redis.zAdd(this.keys.jobs(), { score: job.created_at, value: job.id });
    });
  }

  get(id: string): Promise<StoredJob | undefined> {
    return redisCall('read a job', async () => {
      const [body, lastSlot] = await this.redis.hmGet(this.keys.job(id), ['body', 'last_slot']);
      return toStoredJob(body, lastSlot);
    });
  }

  list(): Promise<StoredJob[]> {
    return redisCall('list jobs', async () => {
      const ids = await this.redis.zRange(this.keys.jobs(), 0, -1);
      const jobs = await Promise.all(ids.map((id) => this.redis.hmGet(this.keys.job(id), ['body', 'last_slot'])));
      return jobs.flatMap(([body, lastSlot]) => toStoredJob(body, lastSlot) ?? []);
    });
  }

  delete(id: string): Promise<boolean> {
    return redisCall('delete a job', async () => {
      await this.redis.zRem(this.keys.jobs(), id);
      return (await this.redis.del([this.keys.job(id), this.keys.jobFires(id)])) > 0;
    });
  }

  claim(id: string, slot: number): Promise<boolean> {
    return redisCall(
      'claim a job slot',
      async () => (await this.redis.eval(CLAIM, { keys: [this.keys.job(id)], arguments: [String(slot)] })) === 1,
    );
  }

  record(id: string, fire: JobFire): Promise<void> {
    return redisCall('record a job fire', async () => {
      await this.redis.eval(RECORD, {
        keys: [this.keys.job(id), this.keys.jobFires(id)],
        arguments: [JSON.stringify(fire), String(FIRES_KEPT)],
      });
    });
  }

  fires(id: string): Promise<JobFire[]> {
    return redisCall('read job fires', async () =>
      (await this.redis.lRange(this.keys.jobFires(id), 0, -1)).map((body) => JSON.parse(body) as JobFire),
    );
  }
}
