import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
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

describe('RedisStore with two instances', () => {
  async function pair() {
    const prefix = testPrefix();
    prefixes.push(prefix);
    const [owner, sweeper] = await Promise.all([RedisStore.open({ url: REDIS_URL, prefix }), RedisStore.open({ url: REDIS_URL, prefix })]);
    onTestFinished(async () => {
      await owner.close();
      await sweeper.close();
    });
    return { owner, sweeper };
  }

  it('drops the saves of an owner whose run another instance claimed (no lease: it counts as dead)', async () => {
    const { owner, sweeper } = await pair();
    await owner.runs.save({ id: 'run_a', status: 'running' });
    expect(await sweeper.runs.unfinished()).toEqual([{ id: 'run_a', status: 'running' }]);
    expect(await owner.runs.unfinished()).toEqual([]);
    await sweeper.runs.save({ id: 'run_a', status: 'failed' });

    await owner.runs.save({ id: 'run_a', status: 'completed' });
    expect(await owner.runs.get('run_a')).toEqual({ id: 'run_a', status: 'failed' });
  });

  it('drops the saves and replacements of a response another instance claimed', async () => {
    const { owner, sweeper } = await pair();
    const response = (status: string) => ({ id: 'resp_a', status, previous_response_id: null });
    await owner.responses.save(response('in_progress'), [{ role: 'user', content: 'hi' }]);
    expect(await sweeper.responses.unfinished()).toEqual([response('in_progress')]);
    await sweeper.responses.replace(response('failed'));

    await owner.responses.save(response('completed'), [{ role: 'user', content: 'hi' }]);
    await owner.responses.replace(response('completed'));
    expect(await owner.responses.get('resp_a')).toMatchObject({ response: response('failed') });
  });
});
