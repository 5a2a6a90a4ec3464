import { afterAll } from 'vitest';
import { RedisStore } from '../../src/store/redis/RedisStore.js';
import { REDIS_URL, removeKeysUnder, SHARED_REDIS, testPrefix } from '../support/redisTest.js';
import { describeRedisStorePair } from '../support/redisStorePair.js';
import { describeStoreContract } from '../support/storeContract.js';

const prefixes: string[] = [];
afterAll(async () => {
  for (const prefix of prefixes) await removeKeysUnder(prefix);
});

describeStoreContract('RedisStore', async (retention) => {
  const prefix = testPrefix();
  prefixes.push(prefix);
  return RedisStore.open({ url: REDIS_URL, prefix, retention });
});

describeRedisStorePair('one Redis', () => SHARED_REDIS);
