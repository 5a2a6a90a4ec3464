import { describe, expect, it, onTestFinished } from 'vitest';
import type { RedisTarget } from '../../src/store/redis/connectRedis.js';
import { RedisStore } from '../../src/store/redis/RedisStore.js';
import { removeKeysUnder, testPrefix } from './redisTest.js';

/**
 * Two `RedisStore`s of `target` (read when each test starts) sharing a prefix: an owner and a
 * sweeper, as two instances would be. One suite, run on one Redis and on a Redis Cluster.
 */
export function describeRedisStorePair(name: string, target: () => RedisTarget): void {
  describe(`RedisStore with two instances on ${name}`, () => {
    async function pair() {
      const prefix = testPrefix();
      const [owner, sweeper] = await Promise.all([RedisStore.open({ ...target(), prefix }), RedisStore.open({ ...target(), prefix })]);
      onTestFinished(async () => {
        await owner.close();
        await sweeper.close();
        await removeKeysUnder(prefix, target());
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

    it("drops the event appends of an owner whose run another instance claimed: the claimant's terminal event is the log's last", async () => {
      const { owner, sweeper } = await pair();
      const event = (seq: number, type: string) => ({ seq, type, data: `{"type":"${type}"}` });
      await owner.runs.save({ id: 'run_a', status: 'running' });
      await owner.events.append('run_a', [event(0, 'message.delta')]);
      expect(await sweeper.runs.unfinished()).toEqual([{ id: 'run_a', status: 'running' }]);

      // The stalled owner wakes up between the claim and the claimant's terminal event.
      await owner.events.append('run_a', [event(1, 'message.delta'), event(2, 'run.completed')]);
      await sweeper.events.appendLast('run_a', () => ({ type: 'run.failed', data: '{"type":"run.failed"}' }));
      await owner.events.append('run_a', [event(2, 'run.completed')]);

      expect((await sweeper.events.read('run_a', -1, 10)).map(({ seq, type }) => [seq, type])).toEqual([
        [0, 'message.delta'],
        [1, 'run.failed'],
      ]);
    });

    it('takes the Idempotency-Key of a pending record whose instance lost its lease, one claim of several', async () => {
      const { owner, sweeper } = await pair();
      const record = (answer: string) => ({ fingerprint: 'f', answer });
      const lease = owner.keys.instance(owner.instanceId);
      await owner.redis.set(lease, 'alive');
      await owner.idempotency.claim('team', 'k', record('a'), 60_000, { pending: true });
      expect(await sweeper.idempotency.claim('team', 'k', record('b'), 60_000, { pending: true })).toEqual({
        ...record('a'),
        first: false,
        pending: true,
      });
      expect(await sweeper.idempotency.stands('team', 'k', 'a')).toBe(true);

      await owner.redis.del(lease);
      expect(await sweeper.idempotency.stands('team', 'k', 'a')).toBe(false);
      const claims = await Promise.all(
        ['b', 'c'].map((answer) => sweeper.idempotency.claim('team', 'k', record(answer), 60_000, { pending: true })),
      );
      expect(claims.filter(({ first }) => first)).toHaveLength(1);
      expect(new Set(claims.map(({ answer }) => answer)).size).toBe(1);
    });

    it('gives an event log that no run or response owns a time to live', async () => {
      const { owner } = await pair();
      await owner.events.append('chatcmpl-a', [{ seq: 0, type: 'frame', data: 'data: {}\n\n' }]);
      await owner.events.expire('chatcmpl-a', 60_000);
      const ttl = await owner.redis.pTTL(owner.keys.events('chatcmpl-a'));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    });

    it('hands an orphan to one claimant only, even when its owner sweeps at the same time (its claim leaves the owner as it was)', async () => {
      const { owner, sweeper } = await pair();
      await owner.runs.save({ id: 'run_a', status: 'running' });
      const claimed = await Promise.all([owner.runs.unfinished(), sweeper.runs.unfinished()]);
      expect(claimed.flat()).toEqual([{ id: 'run_a', status: 'running' }]);
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

    it('drops, without ending anything, the index entries of saves cut short between their commands', async () => {
      const { owner, sweeper } = await pair();
      const { redis, keys } = owner;
      // Died after indexing a new run, before writing it.
      await redis.sAdd(keys.unfinished('runs'), 'run_unwritten');
      // Died after writing a finished run, before taking it out of the index.
      await owner.runs.save({ id: 'run_done', status: 'completed' });
      await redis.sAdd(keys.unfinished('runs'), 'run_done');
      await owner.responses.save({ id: 'resp_done', status: 'completed', previous_response_id: null }, []);
      await redis.sAdd(keys.unfinished('responses'), 'resp_done');

      expect(await sweeper.runs.unfinished()).toEqual([]);
      expect(await sweeper.responses.unfinished()).toEqual([]);
      expect(await redis.sMembers(keys.unfinished('runs'))).toEqual([]);
      expect(await redis.sMembers(keys.unfinished('responses'))).toEqual([]);
      expect(await owner.runs.get('run_done')).toEqual({ id: 'run_done', status: 'completed' });
    });
  });
}
