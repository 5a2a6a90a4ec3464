import { describe, expect, it, onTestFinished } from 'vitest';
import { RedisStore } from '../../src/store/redis/RedisStore.js';
import { SqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import type { Store } from '../../src/store/Store.js';
import type { SpentCall } from '../../src/upstream/SpentCall.js';
import { keysUnder, removeKeysUnder, SHARED_REDIS, testPrefix } from '../support/redisTest.js';

const HOUR = 3_600_000;
/** 2026-12-01T00:00:00Z, a day's start. */
const DAY_START = Date.UTC(2026, 11, 1);

function call(
  at: number,
  key: string,
  requested: string,
  fields: { input?: number; cached?: number; output?: number; usd?: number; estimated?: boolean } = {},
): SpentCall {
  const { input = 100, cached = 0, output = 10, usd = 0.1, estimated = false } = fields;
  return {
    at,
    attempt: { requested, route: requested, upstream: 'main', model: `${requested}-upstream`, attempt: 1, waitedMs: 0 },
    payer: { key, reference: `run_${at}` },
    tokens: { input, cachedInput: cached, cacheWrite: 0, output },
    cost: { usd, priced: true, estimated },
  };
}

// Two keys over two models, in two hours of one day and one hour of the next.
const CALLS = [
  call(DAY_START + 10 * 60_000, 'team-a', 'smart', { cached: 40, usd: 0.2 }),
  call(DAY_START + 20 * 60_000, 'team-a', 'smart', { estimated: true, usd: 0.1 }),
  call(DAY_START + 30 * 60_000, 'team-b', 'fast', { output: 5, usd: 0.05 }),
  call(DAY_START + HOUR + 1, 'team-a', 'fast', { usd: 0.3 }),
  call(DAY_START + 24 * HOUR + 5, 'team-b', 'smart', { usd: 0.7 }),
];

function describeLedger(name: string, open: () => Promise<Store>) {
  describe(`the usage ledger on ${name}`, () => {
    it('sums calls by hour and group, each key alone or all of them', async () => {
      const store = await open();
      for (const spent of CALLS) await store.usage.record(spent);
      const range = { fromMs: DAY_START, toMs: DAY_START + 48 * HOUR };

      expect(await store.usage.summarize({ ...range, bucket: 'hour', groupBy: ['key', 'model'] })).toEqual([
        {
          startMs: DAY_START,
          key: 'team-a',
          model: 'smart',
          calls: 2,
          inputTokens: 200,
          cachedInputTokens: 40,
          outputTokens: 20,
          costUsd: 0.3,
          estimatedCalls: 1,
        },
        {
          startMs: DAY_START,
          key: 'team-b',
          model: 'fast',
          calls: 1,
          inputTokens: 100,
          cachedInputTokens: 0,
          outputTokens: 5,
          costUsd: 0.05,
          estimatedCalls: 0,
        },
        {
          startMs: DAY_START + HOUR,
          key: 'team-a',
          model: 'fast',
          calls: 1,
          inputTokens: 100,
          cachedInputTokens: 0,
          outputTokens: 10,
          costUsd: 0.3,
          estimatedCalls: 0,
        },
        {
          startMs: DAY_START + 24 * HOUR,
          key: 'team-b',
          model: 'smart',
          calls: 1,
          inputTokens: 100,
          cachedInputTokens: 0,
          outputTokens: 10,
          costUsd: 0.7,
          estimatedCalls: 0,
        },
      ]);
      expect(await store.usage.summarize({ ...range, bucket: 'day', groupBy: ['upstreamModel'], key: 'team-a' })).toEqual([
        {
          startMs: DAY_START,
          upstreamModel: 'fast-upstream',
          calls: 1,
          inputTokens: 100,
          cachedInputTokens: 0,
          outputTokens: 10,
          costUsd: 0.3,
          estimatedCalls: 0,
        },
        {
          startMs: DAY_START,
          upstreamModel: 'smart-upstream',
          calls: 2,
          inputTokens: 200,
          cachedInputTokens: 40,
          outputTokens: 20,
          costUsd: 0.3,
          estimatedCalls: 1,
        },
      ]);
      expect(await store.usage.summarize({ fromMs: DAY_START + HOUR, toMs: DAY_START + 25 * HOUR, bucket: 'day', groupBy: [] })).toEqual([
        { startMs: DAY_START, calls: 1, inputTokens: 100, cachedInputTokens: 0, outputTokens: 10, costUsd: 0.3, estimatedCalls: 0 },
        {
          startMs: DAY_START + 24 * HOUR,
          calls: 1,
          inputTokens: 100,
          cachedInputTokens: 0,
          outputTokens: 10,
          costUsd: 0.7,
          estimatedCalls: 0,
        },
      ]);
    });
  });
}

describeLedger('SQLite', async () => {
  const store = new SqliteStore({ dataDir: ':memory:' });
  onTestFinished(() => store.close());
  return store;
});

describeLedger('Redis', async () => {
  const prefix = testPrefix();
  const store = await RedisStore.open({ ...SHARED_REDIS, prefix });
  onTestFinished(async () => {
    await store.close();
    await removeKeysUnder(prefix);
  });
  return store;
});

describe('the usage ledger on Redis', () => {
  it('keeps the rows as a stream and each hour no longer than the retention', async () => {
    const prefix = testPrefix();
    const store = await RedisStore.open({ ...SHARED_REDIS, prefix, retention: { maxItems: 10, maxAgeMs: HOUR, usageMaxAgeMs: 2 * HOUR } });
    onTestFinished(async () => {
      await store.close();
      await removeKeysUnder(prefix);
    });
    const now = Date.now();
    await store.usage.record(call(now, 'team-a', 'smart'));

    const [entry] = (await store.redis.xRange(store.keys.usageCalls(), '-', '+')) ?? [];
    expect(entry?.message).toMatchObject({
      key: 'team-a',
      model: 'smart',
      upstreamModel: 'smart-upstream',
      reference: `run_${now}`,
      estimated: '0',
    });
    const [hour] = (await keysUnder(prefix)).filter((key) => key.includes('usage:hour:'));
    const expiresAt = await store.redis.pExpireTime(hour!);
    expect(expiresAt).toBeGreaterThan(now + 2 * HOUR);
    expect(expiresAt).toBeLessThanOrEqual(now + 3 * HOUR);
  });
});
