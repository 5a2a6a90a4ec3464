import { randomUUID } from 'node:crypto';
import { RPM_WINDOW_MS, type KeyLimits, type ReleaseSlot } from '../KeyLimits.js';
import type { RedisClient } from './connectRedis.js';
import { redisCall } from './redisCall.js';
import type { RedisKeys } from './redisKeys.js';

// Redis's clock, not each instance's: the window is one for all of them.
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// A sliding log of the key's requests in the last window: over the limit, the ms until the oldest leaves it.
const ADMIT = `${NOW}
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + window - now)
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return 0`;

// Slots scored by when they lapse unless renewed: a crashed instance's slots free themselves.
const ACQUIRE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

const RENEW = `${NOW}
if redis.call('ZADD', KEYS[1], 'XX', 'CH', now + tonumber(ARGV[1]), ARGV[2]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return 1`;

/**
 * `KeyLimits` that every instance sharing the Redis shares: one sliding log per key for `rpm`, one
 * set of leased slots per key for `maxStreams` (renewed every third of `leaseMs` while held).
 */
export class RedisKeyLimits implements KeyLimits {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly leaseMs: number,
  ) {}

  admit(keyId: string, rpm: number): Promise<number> {
    return redisCall('count a request of a key', async () =>
      Number(
        await this.redis.eval(ADMIT, {
          keys: [this.keys.keyRequests(keyId)],
          arguments: [String(RPM_WINDOW_MS), String(rpm), randomUUID()],
        }),
      ),
    );
  }

  acquireStream(keyId: string, max: number): Promise<ReleaseSlot | undefined> {
    return redisCall('take a stream slot of a key', async () => {
      const key = this.keys.keyStreams(keyId);
      const slot = randomUUID();
      const lease = String(this.leaseMs);
      if (Number(await this.redis.eval(ACQUIRE, { keys: [key], arguments: [lease, String(max), slot] })) !== 1) return undefined;
      const renew = setInterval(() => {
        this.redis.eval(RENEW, { keys: [key], arguments: [lease, slot] }).catch(() => undefined);
      }, this.leaseMs / 3);
      renew.unref();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        clearInterval(renew);
        // A release that fails leaves the slot to lapse with its lease.
        this.redis.zRem(key, slot).catch(() => undefined);
      };
    });
  }
}
