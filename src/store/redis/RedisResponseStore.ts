import type { ChatMessage } from '../../agent/agent.js';
import { ChainTooLongError } from '../../errors/ChainTooLongError.js';
import { ConversationTooLargeError } from '../../errors/ConversationTooLargeError.js';
import { UnavailableResponseError, type Tombstone } from '../../errors/UnavailableResponseError.js';
import type { ResponseRecord, ResponseStore, StoredResponse } from '../ResponseStore.js';
import type { RetentionPolicy } from '../retentionPolicy.js';
import { claimOrphans, ownedBy, type Claimant } from './claimOrphans.js';
import type { RedisClient } from './connectRedis.js';
import { indexedSave } from './indexedSave.js';
import { readOwner } from './readOwner.js';
import { redisCall } from './redisCall.js';
import type { RedisKeys } from './redisKeys.js';

/** A conversation longer than this many stored turns is refused rather than walked. */
const MAX_CHAIN = 10_000;
/** How much longer than a response its tombstone is kept, so that a chain through it can still say why it broke. */
export const TOMBSTONE_AGES = 10;

const UNFINISHED_RESPONSE = new Set(['queued', 'in_progress']);

// Settling gives the response (and its log) the retention's age as TTL, and leaves the tombstone
// that will say 'evicted' once that TTL took it. A buried response is never brought back.
const EXPIRY = `
if ARGV[1] == '1' then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('PEXPIRE', KEYS[3], ARGV[2])
  redis.call('SET', KEYS[2], 'evicted', 'PX', ARGV[3])
  redis.call('PEXPIRE', KEYS[4], ARGV[3])
else
  redis.call('PERSIST', KEYS[1])
  redis.call('PERSIST', KEYS[4])
end
return redis.call('HGET', KEYS[1], 'created')`;

const SAVE = `
if redis.call('EXISTS', KEYS[1]) == 0 and redis.call('EXISTS', KEYS[2]) == 1 then return false end
${ownedBy(9)}
redis.call('HSET', KEYS[1], 'body', ARGV[4], 'status', ARGV[5], 'turn', ARGV[6], 'previous', ARGV[7], 'bytes', ARGV[8], 'owner', ARGV[9])
redis.call('HSETNX', KEYS[1], 'created', ARGV[10])
if ARGV[11] ~= '' then redis.call('SET', KEYS[4], ARGV[11], 'NX') end
${EXPIRY}`;

const REPLACE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
${ownedBy(6)}
redis.call('HSET', KEYS[1], 'body', ARGV[4], 'status', ARGV[5])
${EXPIRY}`;

const BURY = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('DEL', KEYS[1], KEYS[3])
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
redis.call('PEXPIRE', KEYS[4], ARGV[2])
return 1`;

/**
 * Stored responses in Redis: a hash per response (`body`, `status`, `turn`, `previous`, `bytes`:
 * its chain's turn bytes, `owner`, `created`), a `tombstone` key and the `principal` that made it beside it, and the indexes
 * retention and recovery read. Chains are walked link by link, from whichever instance stored them.
 * A save by an instance whose response another one claimed (its lease had lapsed) is dropped: the
 * claimant's `failed` stands.
 */
export class RedisResponseStore implements ResponseStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly retention: RetentionPolicy,
    private readonly self: Claimant,
  ) {}

  #itemKeys(id: string): string[] {
    return [this.keys.response(id), this.keys.tombstone(id), this.keys.events(id), this.keys.principal(id)];
  }

  #expiryArgs(status: string): string[] {
    const { maxAgeMs } = this.retention;
    return [UNFINISHED_RESPONSE.has(status) ? '0' : '1', String(maxAgeMs), String(maxAgeMs * TOMBSTONE_AGES)];
  }

  save(response: ResponseRecord, turn: readonly ChatMessage[], owner?: string): Promise<void> {
    return redisCall('save a response', async () => {
      const turnJson = JSON.stringify(turn);
      const previous = response.previous_response_id;
      const bytes = Buffer.byteLength(turnJson) + (previous === null ? 0 : ((await this.#conversationBytes(previous)) ?? 0));
      await indexedSave(this.redis, this.keys, 'responses', response.id, UNFINISHED_RESPONSE.has(response.status), () =>
        this.redis.eval(SAVE, {
          keys: this.#itemKeys(response.id),
          arguments: [
            ...this.#expiryArgs(response.status),
            JSON.stringify(response),
            response.status,
            turnJson,
            previous ?? '',
            String(bytes),
            this.self.id,
            String(Date.now()),
            owner ?? '',
          ],
        }),
      );
    });
  }

  owner(id: string): Promise<string | undefined> {
    return redisCall('read a response', () =>
      readOwner(this.redis, this.keys.principal(id), [this.keys.response(id), this.keys.tombstone(id)]),
    );
  }

  conversationBytes(id: string): Promise<number | undefined> {
    return redisCall('read a conversation size', () => this.#conversationBytes(id));
  }

  async #conversationBytes(id: string): Promise<number | undefined> {
    const bytes = await this.redis.hGet(this.keys.response(id), 'bytes');
    return bytes === null || bytes === undefined ? undefined : Number(bytes);
  }

  get<R extends ResponseRecord>(id: string): Promise<StoredResponse<R> | undefined> {
    return redisCall('read a response', async () => {
      const [body, turn] = await this.redis.hmGet(this.keys.response(id), ['body', 'turn']);
      if (body) return { kind: 'response', response: JSON.parse(body) as R, turn: JSON.parse(turn ?? '[]') as ChatMessage[] };
      const tombstone = await this.redis.get(this.keys.tombstone(id));
      return tombstone ? { kind: 'tombstone', tombstone: tombstone as Tombstone } : undefined;
    });
  }

  replace(response: ResponseRecord): Promise<void> {
    return redisCall('save a response', async () => {
      await indexedSave(this.redis, this.keys, 'responses', response.id, UNFINISHED_RESPONSE.has(response.status), () =>
        this.redis.eval(REPLACE, {
          keys: this.#itemKeys(response.id),
          arguments: [...this.#expiryArgs(response.status), JSON.stringify(response), response.status, this.self.id],
        }),
      );
    });
  }

  /** The unfinished responses whose instance died (its lease expired): each is handed to one caller only. */
  unfinished<R extends ResponseRecord>(): Promise<R[]> {
    return redisCall('read unfinished responses', async () => {
      const ids = await claimOrphans(this.redis, this.keys, 'responses', UNFINISHED_RESPONSE, this.self);
      const bodies = await Promise.all(ids.map((id) => this.redis.hGet(this.keys.response(id), 'body')));
      return bodies.flatMap((body) => (body ? [JSON.parse(body) as R] : []));
    });
  }

  delete(id: string): Promise<boolean> {
    return redisCall('delete a response', () => this.bury(id, 'deleted'));
  }

  /** Leaves a tombstone saying why in place of the response (and its log); false when there was none. */
  async bury(id: string, why: Tombstone): Promise<boolean> {
    const { keys } = this;
    const buried = await this.redis.eval(BURY, {
      keys: this.#itemKeys(id),
      arguments: [why, String(this.retention.maxAgeMs * TOMBSTONE_AGES)],
    });
    if (buried !== 1) return false;
    // The indexes are keys of their own (other slots of a Redis Cluster); an entry left by a death
    // before these is removed by retention's next pass (settled), a sweeper (unfinished: no item
    // any more), or outlived by the tombstone's own TTL (tombstones).
    await Promise.all([
      this.redis.zRem(keys.settled('responses'), id),
      this.redis.sRem(keys.unfinished('responses'), id),
      this.redis.zAdd(keys.tombstones(), { score: Date.now(), value: id }),
    ]);
    return true;
  }

  conversation(id: string, maxBytes = Number.POSITIVE_INFINITY): Promise<ChatMessage[]> {
    return redisCall('read a conversation', async () => {
      const bytes = (await this.#conversationBytes(id)) ?? 0;
      if (bytes > maxBytes) throw new ConversationTooLargeError(id, bytes, maxBytes);
      const turns: (readonly ChatMessage[])[] = [];
      for (let cursor: string | null = id; cursor !== null;) {
        if (turns.length >= MAX_CHAIN) throw new ChainTooLongError(id, MAX_CHAIN);
        const [turn, previous]: (string | null | undefined)[] = await this.redis.hmGet(this.keys.response(cursor), ['turn', 'previous']);
        if (turn === null || turn === undefined) {
          const tombstone = await this.redis.get(this.keys.tombstone(cursor));
          throw new UnavailableResponseError(cursor, (tombstone as Tombstone | null) ?? undefined, id);
        }
        turns.push(JSON.parse(turn) as ChatMessage[]);
        cursor = previous ? previous : null;
      }
      return turns.reverse().flat();
    });
  }
}
