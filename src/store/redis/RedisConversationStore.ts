import { itemBytes, type ConversationItem, type ConversationRecord, type ConversationStore } from '../ConversationStore.js';
import type { RetentionPolicy } from '../retentionPolicy.js';
import type { RedisClient } from './connectRedis.js';
import { redisCall } from './redisCall.js';

// KEYS: the conversation hash, its item ids in order (a list), its items by id (a hash), its lock.
// Every write gives all four the retention's age as TTL again: a conversation lives while it is used.
const TOUCH = `
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[1]) end`;

const CREATE = `
redis.call('HSET', KEYS[1], 'created_at', ARGV[2], 'owner', ARGV[3], 'metadata', ARGV[4], 'bytes', ARGV[5])
for i = 6, #ARGV, 3 do
  redis.call('RPUSH', KEYS[2], ARGV[i])
  redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1])
end
${TOUCH}
return 1`;

const APPEND = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[2] ~= '' and redis.call('GET', KEYS[4]) ~= ARGV[2] then return 0 end
for i = 3, #ARGV, 3 do
  redis.call('RPUSH', KEYS[2], ARGV[i])
  redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1])
  redis.call('HINCRBY', KEYS[1], 'bytes', ARGV[i + 2])
end
${TOUCH}
return 1`;

const DELETE_ITEM = `
local item = redis.call('HGET', KEYS[3], ARGV[2])
if not item then return 0 end
redis.call('HDEL', KEYS[3], ARGV[2])
redis.call('LREM', KEYS[2], 1, ARGV[2])
redis.call('HINCRBY', KEYS[1], 'bytes', -tonumber(ARGV[3]))
${TOUCH}
return 1`;

const SET_METADATA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'metadata', ARGV[2])
${TOUCH}
return 1`;

const LOCK = `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

const UNLOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

/** Item fields for a script: id, JSON and bytes of each. */
const itemArgs = (items: readonly ConversationItem[]): string[] =>
  items.flatMap((item) => [item.id, JSON.stringify(item), String(itemBytes(item))]);

/**
 * Conversations in Redis, each under its id as a hash tag (one slot of a Redis Cluster): a hash of
 * the conversation, the list of its item ids in order, a hash of its items by id, and its lock, a
 * key whose TTL is the lease: a holder that dies lets it lapse on every instance. A sorted set of
 * conversations by last write is what retention trims by count.
 */
export class RedisConversationStore implements ConversationStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly retention: RetentionPolicy,
    readonly leaseMs: number,
  ) {}

  #keys(id: string): [conversation: string, order: string, items: string, lock: string] {
    const at = `${this.prefix}{${id}}`;
    return [`${at}:conversation`, `${at}:item_order`, `${at}:items`, `${at}:lock`];
  }

  #index(): string {
    return `${this.prefix}conversations`;
  }

  async #used(id: string): Promise<void> {
    await this.redis.zAdd(this.#index(), { score: Date.now(), value: id });
  }

  create(conversation: Omit<ConversationRecord, 'bytes'>, items: readonly ConversationItem[]): Promise<void> {
    return redisCall('create a conversation', async () => {
      const { id, created_at, owner, metadata } = conversation;
      const bytes = items.reduce((sum, item) => sum + itemBytes(item), 0);
      await this.redis.eval(CREATE, {
        keys: this.#keys(id),
        arguments: [
          String(this.retention.maxAgeMs),
          String(created_at),
          owner,
          JSON.stringify(metadata),
          String(bytes),
          ...itemArgs(items),
        ],
      });
      await this.#used(id);
    });
  }

  get(id: string): Promise<ConversationRecord | undefined> {
    return redisCall('read a conversation', async () => {
      const [created_at, owner, metadata, bytes] = await this.redis.hmGet(this.#keys(id)[0], ['created_at', 'owner', 'metadata', 'bytes']);
      if (!created_at || !owner || !metadata) return undefined;
      return {
        id,
        created_at: Number(created_at),
        owner,
        metadata: JSON.parse(metadata) as Record<string, string>,
        bytes: Number(bytes ?? 0),
      };
    });
  }

  async setMetadata(id: string, metadata: Readonly<Record<string, string>>): Promise<ConversationRecord | undefined> {
    const set = await redisCall('update a conversation', () =>
      this.redis.eval(SET_METADATA, { keys: this.#keys(id), arguments: [String(this.retention.maxAgeMs), JSON.stringify(metadata)] }),
    );
    return set === 1 ? this.get(id) : undefined;
  }

  delete(id: string): Promise<boolean> {
    return redisCall('delete a conversation', async () => {
      const [conversation, order, items] = this.#keys(id);
      const deleted = await this.redis.del([conversation, order, items]);
      await this.redis.zRem(this.#index(), id);
      return deleted > 0;
    });
  }

  items(id: string): Promise<ConversationItem[] | undefined> {
    return redisCall('read conversation items', async () => {
      const [conversation, order, items] = this.#keys(id);
      if (!(await this.redis.exists(conversation))) return undefined;
      const ids = await this.redis.lRange(order, 0, -1);
      if (ids.length === 0) return [];
      const bodies = await this.redis.hmGet(items, ids);
      return bodies.flatMap((body) => (body ? [JSON.parse(body) as ConversationItem] : []));
    });
  }

  item(id: string, itemId: string): Promise<ConversationItem | undefined> {
    return redisCall('read a conversation item', async () => {
      const body = await this.redis.hGet(this.#keys(id)[2], itemId);
      return body ? (JSON.parse(body) as ConversationItem) : undefined;
    });
  }

  deleteItem(id: string, itemId: string): Promise<boolean> {
    return redisCall('delete a conversation item', async () => {
      const body = await this.redis.hGet(this.#keys(id)[2], itemId);
      if (!body) return false;
      const deleted = await this.redis.eval(DELETE_ITEM, {
        keys: this.#keys(id),
        arguments: [String(this.retention.maxAgeMs), itemId, String(itemBytes(JSON.parse(body) as ConversationItem))],
      });
      await this.#used(id);
      return deleted === 1;
    });
  }

  append(id: string, items: readonly ConversationItem[], holder?: string): Promise<boolean> {
    return redisCall('append to a conversation', async () => {
      const appended = await this.redis.eval(APPEND, {
        keys: this.#keys(id),
        arguments: [String(this.retention.maxAgeMs), holder ?? '', ...itemArgs(items)],
      });
      if (appended !== 1) return false;
      await this.#used(id);
      return true;
    });
  }

  lock(id: string, holder: string): Promise<boolean> {
    return redisCall('lock a conversation', async () => {
      const locked = await this.redis.eval(LOCK, { keys: [this.#keys(id)[3]], arguments: [holder, String(this.leaseMs)] });
      return locked === 1;
    });
  }

  unlock(id: string, holder: string): Promise<void> {
    return redisCall('unlock a conversation', async () => {
      await this.redis.eval(UNLOCK, { keys: [this.#keys(id)[3]], arguments: [holder] });
    });
  }

  /** Deletes the conversations retention no longer keeps (their TTLs take those not written to for its age anyway); returns how many. */
  async evict(): Promise<number> {
    const { maxItems, maxAgeMs } = this.retention;
    const old = await this.redis.zRangeByScore(this.#index(), '-inf', Date.now() - maxAgeMs);
    const surplus = await this.redis.zRange(this.#index(), 0, -(maxItems + 1));
    const ids = [...new Set([...old, ...surplus])];
    await Promise.all(ids.map((id) => this.delete(id)));
    return ids.length;
  }
}
