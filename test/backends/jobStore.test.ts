import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { FIRES_KEPT, type JobFire, type JobRecord, type JobStore } from '../../src/store/JobStore.js';
import { RedisStore } from '../../src/store/redis/RedisStore.js';
import { openDatabase } from '../../src/store/sqlite/openDatabase.js';
import { SqliteJobStore } from '../../src/store/sqlite/SqliteJobStore.js';
import { WriteHealth } from '../../src/store/sqlite/storeCall.js';
import { removeKeysUnder, SHARED_REDIS, testPrefix } from '../support/redisTest.js';

const job = (id: string, created_at: number): JobRecord => ({
  id,
  owner: 'default',
  name: id,
  schedule: 'every 1s',
  timezone: 'UTC',
  enabled: true,
  input: 'tick',
  created_at,
  anchor: created_at,
  owed_from: created_at,
});

const fire = (slot: number): JobFire => ({ slot, trigger: 'schedule', run_id: `run_${slot}`, skipped: null, fired_at: slot });

/** Two stores over the same data, as two instances (or two connections) see it. */
function describeJobStore(name: string, open: () => Promise<readonly [JobStore, JobStore]>) {
  describe(`the job store on ${name}`, () => {
    it('keeps jobs oldest first, replaces one without losing its claimed slot, and deletes it with its fires', async () => {
      const [store] = await open();
      await store.save(job('job_b', 2));
      await store.save(job('job_a', 1));
      expect(await store.claim('job_a', 1_000)).toBe(true);
      await store.save({ ...job('job_a', 1), name: 'renamed' });
      await store.record('job_a', fire(1_000));

      expect((await store.list()).map(({ id, name: shown, last_slot }) => [id, shown, last_slot])).toEqual([
        ['job_a', 'renamed', 1_000],
        ['job_b', 'job_b', null],
      ]);
      expect(await store.delete('job_a')).toBe(true);
      expect(await store.delete('job_a')).toBe(false);
      expect(await store.get('job_a')).toBeUndefined();
      expect(await store.fires('job_a')).toEqual([]);
      expect(await store.claim('job_a', 2_000)).toBe(false);
    });

    it('gives each slot to exactly one of two instances claiming at once, and never a slot at or before one claimed', async () => {
      const [one, two] = await open();
      await one.save(job('job_a', 1));
      const slots = Array.from({ length: 20 }, (_, index) => 1_000 * (index + 1));
      const claims = await Promise.all(slots.flatMap((slot) => [one.claim('job_a', slot), two.claim('job_a', slot)]));
      for (let index = 0; index < slots.length; index++) expect(claims[2 * index]! !== claims[2 * index + 1]!).toBe(true);
      expect(await one.claim('job_a', 20_000)).toBe(false);
      expect(await two.claim('job_a', 5_000)).toBe(false);
      expect((await two.get('job_a'))?.last_slot).toBe(20_000);
    });

    it('keeps no fire of a job deleted before it is recorded (one deleted while its slot fired, or while run by hand)', async () => {
      const [store, other] = await open();
      await store.save(job('job_a', 1));
      expect(await store.claim('job_a', 1_000)).toBe(true);
      expect(await other.delete('job_a')).toBe(true);
      await store.record('job_a', fire(1_000));
      expect(await store.fires('job_a')).toEqual([]);
    });

    it(`keeps a job's newest ${FIRES_KEPT} fires, newest first`, async () => {
      const [store] = await open();
      await store.save(job('job_a', 1));
      for (let slot = 1; slot <= FIRES_KEPT + 5; slot++) await store.record('job_a', fire(slot));
      const fires = await store.fires('job_a');
      expect(fires).toHaveLength(FIRES_KEPT);
      expect(fires[0]).toEqual(fire(FIRES_KEPT + 5));
      expect(fires.at(-1)).toEqual(fire(6));
    });
  });
}

describeJobStore('SQLite (two connections to one file)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rxgate-jobs-'));
  const [a, b] = [openDatabase(dir), openDatabase(dir)];
  onTestFinished(() => {
    a.close();
    b.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return [new SqliteJobStore(a, new WriteHealth()), new SqliteJobStore(b, new WriteHealth())];
});

describeJobStore('Redis (two instances)', async () => {
  const prefix = testPrefix();
  const [a, b] = await Promise.all([RedisStore.open({ ...SHARED_REDIS, prefix }), RedisStore.open({ ...SHARED_REDIS, prefix })]);
  onTestFinished(async () => {
    await a.close();
    await b.close();
    await removeKeysUnder(prefix);
  });
  return [a.jobs, b.jobs];
});
