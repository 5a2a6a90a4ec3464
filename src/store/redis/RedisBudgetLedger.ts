import { randomUUID } from 'node:crypto';
import type { BudgetWindow } from '../../money/budgetWindow.js';
import { fromPico, toPico } from '../../money/pico.js';
import type { BudgetHold, BudgetHoldRequest, BudgetLedger, BudgetSettlement, BudgetStanding } from '../../money/BudgetLedger.js';
import type { RedisClient } from './connectRedis.js';
import { redisCall } from './redisCall.js';
import type { RedisKeys } from './redisKeys.js';

// Both scripts read a key's spend (KEYS[1]) and holds (KEYS[2]) alike: the buckets from ARGV[1] on, and the holds
// that have not lapsed at ARGV[2], dropping those that have.
const STANDING = `local function standing(from, now)
  local spent, held = 0, 0
  local buckets = redis.call('HGETALL', KEYS[1])
  for i = 1, #buckets, 2 do
    if tonumber(buckets[i]) >= from then spent = spent + tonumber(buckets[i + 1]) end
  end
  local holds = redis.call('HGETALL', KEYS[2])
  for i = 1, #holds, 2 do
    local pico, expires = string.match(holds[i + 1], '^(%d+):(%d+)$')
    if tonumber(expires) <= now then redis.call('HDEL', KEYS[2], holds[i]) else held = held + tonumber(pico) end
  end
  return spent, held
end
`;

// ARGV: from, now, limit, worst case, lease, id, expiry. A hold goes in only if it fits; every hold lives a lease, so the hash does too.
const HOLD = `${STANDING}
local spent, held = standing(tonumber(ARGV[1]), tonumber(ARGV[2]))
if spent + held + tonumber(ARGV[4]) > tonumber(ARGV[3]) then
  return {0, string.format('%.0f', spent), string.format('%.0f', held)}
end
redis.call('HSET', KEYS[2], ARGV[6], ARGV[4] .. ':' .. ARGV[7])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return {1}`;

// ARGV: bucket, spend, forget before, keep until, id, from. The hold goes, its spend lands in the bucket of the
// settling instant; the answer is the window's spend after it.
const SETTLE = `redis.call('HDEL', KEYS[2], ARGV[5])
redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
local spent = 0
local buckets = redis.call('HGETALL', KEYS[1])
for i = 1, #buckets, 2 do
  local bucket = tonumber(buckets[i])
  if bucket < tonumber(ARGV[3]) then redis.call('HDEL', KEYS[1], buckets[i])
  elseif bucket >= tonumber(ARGV[6]) then spent = spent + tonumber(buckets[i + 1]) end
end
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
return string.format('%.0f', spent)`;

const READ = `${STANDING}
local spent, held = standing(tonumber(ARGV[1]), tonumber(ARGV[2]))
return {string.format('%.0f', spent), string.format('%.0f', held)}`;

/** How long past its reset a series is kept, at the least: a clock a little behind another instance's still finds it. */
const KEEP_MARGIN_MS = 24 * 3600_000;

/**
 * Budgets in Redis: a key's spend (a hash of buckets) and its holds (a hash of worst cases with
 * their lease) share the key's hash tag, so each hold is one script on one slot of a cluster,
 * atomic across every instance.
 */
export class RedisBudgetLedger implements BudgetLedger {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
  ) {}

  hold({ key, window, limitUsd, usd, nowMs, leaseMs }: BudgetHoldRequest): Promise<BudgetHold> {
    const id = randomUUID();
    return redisCall('hold a budget', async () => {
      const answer = (await this.redis.eval(HOLD, {
        keys: this.#keysOf(key, window),
        arguments: [window.fromMs, nowMs, toPico(limitUsd), toPico(usd), leaseMs, id, nowMs + leaseMs].map(String),
      })) as [number, string?, string?];
      return answer[0] === 1
        ? { held: true, id }
        : { held: false, spentUsd: fromPico(Number(answer[1])), heldUsd: fromPico(Number(answer[2])) };
    });
  }

  settle({ key, id, usd, window }: BudgetSettlement): Promise<number> {
    const keepUntil = window.resetsAtMs + (window.resetsAtMs - window.forgetBeforeMs) + KEEP_MARGIN_MS;
    return redisCall('settle a budget hold', async () => {
      const spent = (await this.redis.eval(SETTLE, {
        keys: this.#keysOf(key, window),
        arguments: [window.bucketMs, toPico(usd), window.forgetBeforeMs, keepUntil, id, window.fromMs].map(String),
      })) as string;
      return fromPico(Number(spent));
    });
  }

  standing(key: string, window: BudgetWindow, nowMs: number): Promise<BudgetStanding> {
    return redisCall('read a budget', async () => {
      const [spent, held] = (await this.redis.eval(READ, {
        keys: this.#keysOf(key, window),
        arguments: [String(window.fromMs), String(nowMs)],
      })) as [string, string];
      return { spentUsd: fromPico(Number(spent)), heldUsd: fromPico(Number(held)) };
    });
  }

  #keysOf(key: string, window: BudgetWindow): string[] {
    return [this.keys.budgetSpent(key, window.series), this.keys.budgetHolds(key)];
  }
}
