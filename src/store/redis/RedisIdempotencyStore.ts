import type { IdempotencyRecord, IdempotencyStore } from '../IdempotencyStore.js';
import type { RedisClient } from './connectRedis.js';
import { redisCall } from './redisCall.js';
import type { RedisKeys } from './redisKeys.js';

const CLAIM = `
local standing = redis.call('GET', KEYS[1])
if standing then return standing end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false`;

/** `Idempotency-Key` records in Redis: one key per owner and key, expiring with the record. */
export class RedisIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
  ) {}

  claim(owner: string, key: string, record: IdempotencyRecord, ttlMs: number): Promise<IdempotencyRecord & { readonly first: boolean }> {
    return redisCall('claim an idempotency key', async () => {
      const standing = await this.redis.eval(CLAIM, {
        keys: [this.keys.idempotency(owner, key)],
        arguments: [JSON.stringify(record), String(ttlMs)],
      });
      return typeof standing === 'string' ? { ...(JSON.parse(standing) as IdempotencyRecord), first: false } : { ...record, first: true };
    });
  }
}
