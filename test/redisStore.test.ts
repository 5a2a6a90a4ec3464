import { afterAll } from 'vitest';
import { RedisStore } from '../src/store/redis/RedisStore.js';
import { REDIS_URL, removeKeysUnder, testPrefix } from './support/redisTest.js';
import { describeStoreContract } from './support/storeContract.js';

const prefixes: string[] = [];
afterAll(async () => {
  for (const prefix of prefixes) await removeKeysUnder(prefix);
});

describeStoreContract('RedisStore', async (retention) => {
  const prefix = testPrefix();
  prefixes.push(prefix);
  return RedisStore.open({ url: REDIS_URL, prefix, retention });
});
