import { firstValueFrom, take } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ChainTooLongError } from '../../src/errors/ChainTooLongError.js';
import { ConversationTooLargeError } from '../../src/errors/ConversationTooLargeError.js';
import { UnavailableResponseError } from '../../src/errors/UnavailableResponseError.js';
import type { RetentionPolicy } from '../../src/store/retentionPolicy.js';
import type { Store } from '../../src/store/Store.js';

const response = (id: string, previous: string | null = null, status = 'completed') => ({ id, status, previous_response_id: previous });
const turn = (text: string) => [{ role: 'user' as const, content: text }];
const event = (seq: number) => ({ seq, type: 'message.delta', data: `{"seq":${seq}}` });

/**
 * What every `Store` must do, whatever keeps it: one suite, run against each implementation.
 * `open` gives a store of its own (no other test's ids), with `retention` when given.
 */
export function describeStoreContract(name: string, open: (retention?: RetentionPolicy) => Promise<Store>): void {
  describe(`${name}: the Store contract`, () => {
    const opened: Store[] = [];
    const store = async (retention?: RetentionPolicy) => {
      const made = await open(retention);
      opened.push(made);
      return made;
    };
    afterEach(async () => {
      for (const made of opened.splice(0)) await made.close();
    });

    it('stores responses with their turns, replaces the object keeping the turn, and buries a deleted one', async () => {
      const responses = (await store()).responses;
      await responses.save(response('resp_a', null, 'in_progress'), turn('one'));
      expect(await responses.unfinished()).toEqual([response('resp_a', null, 'in_progress')]);
      await responses.replace(response('resp_a'));
      expect(await responses.get('resp_a')).toEqual({ kind: 'response', response: response('resp_a'), turn: turn('one') });
      expect(await responses.unfinished()).toEqual([]);
      expect(await responses.delete('resp_a')).toBe(true);
      expect(await responses.delete('resp_missing')).toBe(false);
      expect(await responses.get('resp_a')).toEqual({ kind: 'tombstone', tombstone: 'deleted' });
      expect(await responses.get('resp_missing')).toBeUndefined();
    });

    it('walks a chain oldest first, knows its size before reading it, and names a missing link', async () => {
      const responses = (await store()).responses;
      await responses.save(response('resp_1'), turn('a'));
      await responses.save(response('resp_2', 'resp_1'), turn('b'));
      await responses.save(response('resp_3', 'resp_2'), turn('c'));
      const bytes = (text: string) => Buffer.byteLength(JSON.stringify(turn(text)));
      expect(await responses.conversationBytes('resp_3')).toBe(bytes('a') + bytes('b') + bytes('c'));
      expect(await responses.conversation('resp_3')).toEqual([...turn('a'), ...turn('b'), ...turn('c')]);
      await expect(responses.conversation('resp_3', bytes('a'))).rejects.toBeInstanceOf(ConversationTooLargeError);
      await responses.delete('resp_2');
      const broken = await responses.conversation('resp_3').catch((error: unknown) => error);
      expect(broken).toBeInstanceOf(UnavailableResponseError);
      expect((broken as Error).message).toContain("'resp_2'");
    });

    it('refuses a chain longer than it walks', async () => {
      const responses = (await store()).responses;
      let previous: string | null = null;
      for (let link = 0; link <= 10_000; link++) {
        await responses.save(response(`resp_l${link}`, previous), []);
        previous = `resp_l${link}`;
      }
      await expect(responses.conversation(previous!)).rejects.toBeInstanceOf(ChainTooLongError);
    }, 60_000);

    it("keeps who made a run or a response from its first save on, through a tombstone; without one it is default's", async () => {
      const { runs, responses } = await store();
      await runs.save({ id: 'run_o', status: 'running' }, 'team-a');
      await runs.save({ id: 'run_o', status: 'completed' });
      await runs.save({ id: 'run_old', status: 'completed' });
      expect([await runs.owner('run_o'), await runs.owner('run_old'), await runs.owner('run_missing')]).toEqual([
        'team-a',
        'default',
        undefined,
      ]);
      await responses.save(response('resp_o', null, 'in_progress'), turn('one'), 'team-a');
      await responses.save(response('resp_o'), turn('one'), 'team-b');
      await responses.save(response('resp_old'), turn('one'));
      await responses.delete('resp_o');
      expect([await responses.owner('resp_o'), await responses.owner('resp_old'), await responses.owner('resp_missing')]).toEqual([
        'team-a',
        'default',
        undefined,
      ]);
    });

    it('stores runs and lists the unfinished ones', async () => {
      const runs = (await store()).runs;
      await runs.save({ id: 'run_a', status: 'running' });
      await runs.save({ id: 'run_b', status: 'completed' });
      expect(await runs.get('run_a')).toEqual({ id: 'run_a', status: 'running' });
      expect(await runs.get('run_missing')).toBeUndefined();
      expect(await runs.unfinished()).toEqual([{ id: 'run_a', status: 'running' }]);
    });

    it('never takes a finished run back to queued or running, and lets one finished state follow another', async () => {
      const runs = (await store()).runs;
      await runs.save({ id: 'run_a', status: 'running' }, 'team-a');
      await runs.save({ id: 'run_a', status: 'completed' });
      await runs.save({ id: 'run_a', status: 'running' });
      await runs.save({ id: 'run_a', status: 'queued' });
      expect(await runs.get('run_a')).toEqual({ id: 'run_a', status: 'completed' });
      expect(await runs.unfinished()).toEqual([]);
      await runs.save({ id: 'run_a', status: 'failed' });
      expect(await runs.get('run_a')).toEqual({ id: 'run_a', status: 'failed' });
      expect(await runs.owner('run_a')).toBe('team-a');
    });

    it('lists runs newest first, finished or not, a page after another', async () => {
      const runs = (await store()).runs;
      // Saved in one millisecond or several: these ids are in the order of saving, which Redis takes for ties.
      for (const [id, status] of [
        ['run_a', 'completed'],
        ['run_b', 'running'],
        ['run_c', 'failed'],
        ['run_d', 'running'],
      ] as const) {
        await runs.save({ id, status });
      }
      await runs.save({ id: 'run_b', status: 'completed' });
      const ids = async (page: Parameters<typeof runs.list>[0]) => (await runs.list(page)).map(({ run }) => run.id);
      expect(await ids({ limit: 3 })).toEqual(['run_d', 'run_c', 'run_b']);
      expect(await runs.list({ limit: 1, after: 'run_c' })).toEqual([{ run: { id: 'run_b', status: 'completed' }, owner: 'default' }]);
      expect(await ids({ limit: 5, after: 'run_b' })).toEqual(['run_a']);
      expect(await ids({ limit: 5, after: 'run_a' })).toEqual([]);
      expect(await ids({ limit: 5, after: 'run_missing' })).toEqual([]);
    });

    it('keeps an event log in pages, its last event, and refuses a sequence number twice', async () => {
      const events = (await store()).events;
      await events.append('run_log', [event(0), event(1)]);
      await events.append('run_log', [event(2)]);
      expect(await events.read('run_log', -1, 2)).toEqual([event(0), event(1)]);
      expect(await events.read('run_log', 1, 10)).toEqual([event(2)]);
      expect(await events.last('run_log')).toEqual(event(2));
      expect(await events.appendLast('run_log', (seq) => ({ type: 'run.failed', data: `{"at":${seq}}` }))).toEqual({
        seq: 3,
        type: 'run.failed',
        data: '{"at":3}',
      });
      await expect(events.append('run_log', [event(3)])).rejects.toThrow();
      expect(await events.read('run_log', 2, 10)).toEqual([{ seq: 3, type: 'run.failed', data: '{"at":3}' }]);
      await events.remove('run_log');
      expect(await events.read('run_log', -1, 10)).toEqual([]);
      expect(await events.last('run_log')).toBeUndefined();
    });

    it('claims an Idempotency-Key once, per owner, and holds a pending record until it is settled or given up', async () => {
      const { idempotency } = await store();
      const a = { fingerprint: 'f1', answer: 'a' };
      expect(await idempotency.claim('team', 'k', a, 60_000, { pending: true })).toEqual({ ...a, first: true, pending: true });
      expect(await idempotency.claim('team', 'k', { fingerprint: 'f1', answer: 'b' }, 60_000, { pending: true })).toEqual({
        ...a,
        first: false,
        pending: true,
      });
      expect(await idempotency.claim('other', 'k', { fingerprint: 'f1', answer: 'c' }, 60_000)).toMatchObject({
        first: true,
        pending: false,
      });
      expect([await idempotency.stands('team', 'k', 'a'), await idempotency.stands('team', 'k', 'b')]).toEqual([true, false]);

      await idempotency.settle('team', 'k', 'a');
      expect(await idempotency.claim('team', 'k', { fingerprint: 'f2', answer: 'b' }, 60_000)).toEqual({
        ...a,
        first: false,
        pending: false,
      });
      // Only the request the record stands for gives it up.
      await idempotency.release('team', 'k', 'b');
      expect(await idempotency.stands('team', 'k', 'a')).toBe(true);
      await idempotency.release('team', 'k', 'a');
      expect(await idempotency.stands('team', 'k', 'a')).toBe(false);
      expect(await idempotency.claim('team', 'k', { fingerprint: 'f2', answer: 'd' }, 60_000)).toEqual({
        fingerprint: 'f2',
        answer: 'd',
        first: true,
        pending: false,
      });
    });

    it('hints that a log grew only once the events are stored', async () => {
      const events = (await store()).events;
      const hinted = firstValueFrom(events.appended$('run_hint').pipe(take(1)));
      const stored = events.append('run_hint', [event(0)]);
      await hinted;
      expect(await events.read('run_hint', -1, 10)).toEqual([event(0)]);
      await stored;
    });

    it('evicts the oldest settled responses to tombstones, past the retention', async () => {
      const kept = await store({ maxItems: 1, maxAgeMs: 60_000, usageMaxAgeMs: 60_000 });
      for (const id of ['resp_r1', 'resp_r2', 'resp_r3']) await kept.responses.save(response(id), []);
      await kept.enforceRetention();
      expect(await kept.responses.get('resp_r3')).toMatchObject({ kind: 'response' });
      expect(await kept.responses.get('resp_r1')).toEqual({ kind: 'tombstone', tombstone: 'evicted' });
      expect(await kept.checkWritable()).toBeUndefined();
    });
  });
}
