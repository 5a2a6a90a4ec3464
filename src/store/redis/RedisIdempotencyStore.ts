import type { ClaimOptions, IdempotencyRecord, IdempotencyStore, StandingRecord } from '../IdempotencyStore.js';
import type { RedisClient } from './connectRedis.js';
import { redisCall } from './redisCall.js';
import type { RedisKeys } from './redisKeys.js';

/** A record as its key holds it: `pendingOn` names the instance answering its first request, until it settles. */
interface Stored extends IdempotencyRecord {
  readonly pendingOn?: string;
}

const CLAIM = `
local standing = redis.call('GET', KEYS[1])
if standing then return standing end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false`;

/** Replaces the record `ARGV[1]` with `ARGV[2]` (for `ARGV[3]` ms; without it, for the time it had left), unless it changed meanwhile. */
const REPLACE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[3] then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) else redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL') end
return 1`;

const REMOVE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])`;

/** Claims in a row that may each find a dead instance's record and lose the race to take it over. */
const CLAIM_TRIES = 3;

/**
 * `Idempotency-Key` records in Redis: one key per owner and key, expiring with the record. A
 * pending record names the instance answering it; one whose instance has lost its lease (see
 * `RedisCoordinator`) is taken by the next claim, a compare-and-set on the record, so of several
 * claims at once one takes it.
 */
export class RedisIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    /** This instance, as the one answering the records it claims pending. */
    private readonly instanceId: string,
  ) {}

  claim(owner: string, key: string, record: IdempotencyRecord, ttlMs: number, options: ClaimOptions = {}): Promise<StandingRecord> {
    const pending = options.pending ?? false;
    const mine = JSON.stringify(pending ? { ...record, pendingOn: this.instanceId } : record);
    const redisKey = this.keys.idempotency(owner, key);
    return redisCall('claim an idempotency key', async () => {
      for (let attempt = 1; ; attempt++) {
        const standing = await this.redis.eval(CLAIM, { keys: [redisKey], arguments: [mine, String(ttlMs)] });
        if (typeof standing !== 'string') return { ...record, first: true, pending };
        const stored = JSON.parse(standing) as Stored;
        const found = { fingerprint: stored.fingerprint, answer: stored.answer, first: false, pending: stored.pendingOn !== undefined };
        if (attempt === CLAIM_TRIES || (await this.#alive(stored))) return found;
        const taken = await this.redis.eval(REPLACE, { keys: [redisKey], arguments: [standing, mine, String(ttlMs)] });
        if (taken === 1) return { ...record, first: true, pending };
      }
    });
  }

  settle(owner: string, key: string, answer: string): Promise<void> {
    return redisCall('settle an idempotency key', async () => {
      const redisKey = this.keys.idempotency(owner, key);
      const standing = await this.redis.get(redisKey);
      const stored = standing === null ? undefined : (JSON.parse(standing) as Stored);
      if (stored?.answer !== answer || stored.pendingOn === undefined) return;
      const settled: IdempotencyRecord = { fingerprint: stored.fingerprint, answer };
      await this.redis.eval(REPLACE, { keys: [redisKey], arguments: [standing!, JSON.stringify(settled)] });
    });
  }

  release(owner: string, key: string, answer: string): Promise<void> {
    return redisCall('release an idempotency key', async () => {
      const redisKey = this.keys.idempotency(owner, key);
      const standing = await this.redis.get(redisKey);
      if (standing === null || (JSON.parse(standing) as Stored).answer !== answer) return;
      await this.redis.eval(REMOVE, { keys: [redisKey], arguments: [standing] });
    });
  }

  stands(owner: string, key: string, answer: string): Promise<boolean> {
    return redisCall('read an idempotency key', async () => {
      const standing = await this.redis.get(this.keys.idempotency(owner, key));
      const stored = standing === null ? undefined : (JSON.parse(standing) as Stored);
      return stored?.answer === answer && (await this.#alive(stored));
    });
  }

  /** Whether the instance answering `stored` (if it is pending) still holds its lease; this instance always does, to itself. */
  async #alive({ pendingOn }: Stored): Promise<boolean> {
    if (pendingOn === undefined || pendingOn === this.instanceId) return true;
    return (await this.redis.exists(this.keys.instance(pendingOn))) === 1;
  }
}
