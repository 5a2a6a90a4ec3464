import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ConversationItem } from '../../src/store/ConversationStore.js';
import { RedisStore } from '../../src/store/redis/RedisStore.js';
import type { RetentionPolicy } from '../../src/store/retentionPolicy.js';
import { SqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import type { Store } from '../../src/store/Store.js';
import { REDIS_URL, removeKeysUnder, testPrefix } from '../support/redisTest.js';

const KEEP_ALL: RetentionPolicy = { maxItems: 1_000, maxAgeMs: 24 * 3600 * 1000, usageMaxAgeMs: 24 * 3600 * 1000 };
const prefixes: string[] = [];
afterAll(async () => {
  for (const prefix of prefixes) await removeKeysUnder(prefix);
});

const STORES: readonly [string, (retention: RetentionPolicy) => Promise<Store>][] = [
  ['SqliteStore', async (retention) => new SqliteStore({ dataDir: ':memory:', retention, flushMs: 1 })],
  [
    'RedisStore',
    async (retention) => {
      const prefix = testPrefix();
      prefixes.push(prefix);
      return RedisStore.open({ url: REDIS_URL, prefix, retention, leaseMs: 300 });
    },
  ],
];

const message = (id: string, text: string): ConversationItem =>
  ({ id, type: 'message', role: 'user', content: [{ type: 'input_text', text }] }) as ConversationItem;
const conversation = (id: string) => ({ id, created_at: 1_700_000_000, metadata: { a: 'b' }, owner: 'default' });
const bytesOf = (...items: ConversationItem[]) => items.reduce((sum, item) => sum + Buffer.byteLength(JSON.stringify(item)), 0);

describe.each(STORES)('%s: conversations', (_name, open) => {
  const opened: Store[] = [];
  const store = async (retention = KEEP_ALL) => {
    const made = await open(retention);
    opened.push(made);
    return made.conversations;
  };
  afterEach(async () => {
    for (const made of opened.splice(0)) await made.close();
  });

  it('keeps items in order with their size, appends, deletes one item, and deletes a conversation with its items', async () => {
    const conversations = await store();
    const [one, two, three] = [message('msg_1', 'one'), message('msg_2', 'two'), message('msg_3', 'three')];
    await conversations.create(conversation('conv_a'), [one, two]);
    expect(await conversations.get('conv_a')).toEqual({ ...conversation('conv_a'), bytes: bytesOf(one, two) });
    expect(await conversations.append('conv_a', [three])).toBe(true);
    expect(await conversations.items('conv_a')).toEqual([one, two, three]);
    expect(await conversations.item('conv_a', 'msg_2')).toEqual(two);

    expect(await conversations.deleteItem('conv_a', 'msg_2')).toBe(true);
    expect(await conversations.deleteItem('conv_a', 'msg_2')).toBe(false);
    expect(await conversations.items('conv_a')).toEqual([one, three]);
    expect((await conversations.get('conv_a'))!.bytes).toBe(bytesOf(one, three));
    expect(await conversations.setMetadata('conv_a', { c: 'd' })).toMatchObject({ metadata: { c: 'd' } });

    expect(await conversations.delete('conv_a')).toBe(true);
    expect(await conversations.delete('conv_a')).toBe(false);
    expect(await conversations.get('conv_a')).toBeUndefined();
    expect(await conversations.items('conv_a')).toBeUndefined();
    expect(await conversations.item('conv_a', 'msg_1')).toBeUndefined();
    expect(await conversations.append('conv_a', [one])).toBe(false);
    expect(await conversations.setMetadata('conv_a', {})).toBeUndefined();
  });

  it('locks for one holder at a time, and appends for a holder only while it holds the lock', async () => {
    const conversations = await store();
    await conversations.create(conversation('conv_l'), []);
    expect(await conversations.lock('conv_l', 'first')).toBe(true);
    expect(await conversations.lock('conv_l', 'second')).toBe(false);
    expect(await conversations.lock('conv_l', 'first')).toBe(true);
    expect(await conversations.append('conv_l', [message('msg_s', 'second')], 'second')).toBe(false);
    expect(await conversations.append('conv_l', [message('msg_f', 'first')], 'first')).toBe(true);

    await conversations.unlock('conv_l', 'second');
    expect(await conversations.lock('conv_l', 'second')).toBe(false);
    await conversations.unlock('conv_l', 'first');
    expect(await conversations.append('conv_l', [message('msg_x', 'late')], 'first')).toBe(false);
    expect(await conversations.lock('conv_l', 'second')).toBe(true);
    expect((await conversations.items('conv_l'))!.map((item) => item.id)).toEqual(['msg_f']);
  });

  it('evicts the conversations used least recently past the retention count, with their items', async () => {
    const made = await open({ maxItems: 1, maxAgeMs: 24 * 3600 * 1000, usageMaxAgeMs: 24 * 3600 * 1000 });
    opened.push(made);
    const { conversations } = made;
    await conversations.create(conversation('conv_old'), [message('msg_o', 'old')]);
    await conversations.create(conversation('conv_new'), []);
    // Used after the other was made, in a later millisecond: the last write is what retention orders by.
    const madeAt = Date.now();
    await expect.poll(() => Date.now()).toBeGreaterThan(madeAt);
    expect(await conversations.append('conv_old', [message('msg_p', 'used')])).toBe(true);
    expect(await made.enforceRetention()).toBe(1);

    expect(await conversations.get('conv_new')).toBeUndefined();
    expect(await conversations.items('conv_old')).toHaveLength(2);
  });
});

describe('RedisStore: a conversation lock', () => {
  it('lapses after the lease when its holder stops renewing it', async () => {
    const prefix = testPrefix();
    prefixes.push(prefix);
    const store = await RedisStore.open({ url: REDIS_URL, prefix, leaseMs: 200 });
    try {
      await store.conversations.create(conversation('conv_t'), []);
      expect(await store.conversations.lock('conv_t', 'dead holder')).toBe(true);
      expect(await store.conversations.lock('conv_t', 'next')).toBe(false);
      await expect.poll(() => store.conversations.lock('conv_t', 'next')).toBe(true);
    } finally {
      await store.close();
    }
  });
});
