import { randomUUID } from 'node:crypto';
import { StoreError } from '../../errors/StoreError.js';
import { DEFAULTS } from '../../config.js';
import { silentLogger, type Logger } from '../../logger.js';
import { retentionPolicy, type RetentionPolicy } from '../retentionPolicy.js';
import type { Store } from '../Store.js';
import { BlockingStreamWatcher } from './BlockingStreamWatcher.js';
import { connectRedis, isCluster, type RedisClient, type RedisTarget } from './connectRedis.js';
import type { Claimant } from './claimOrphans.js';
import { onePassAtATime } from './onePassAtATime.js';
import { redisCall } from './redisCall.js';
import { RedisIdempotencyStore } from './RedisIdempotencyStore.js';
import { RedisConversationStore } from './RedisConversationStore.js';
import { RedisEventLog } from './RedisEventLog.js';
import { RedisJobStore } from './RedisJobStore.js';
import { RedisKeys } from './redisKeys.js';
import { RedisResponseStore, TOMBSTONE_AGES } from './RedisResponseStore.js';
import { RedisRunStore } from './RedisRunStore.js';
import { RedisUsageLedger } from './RedisUsageLedger.js';
import { RedisBudgetLedger } from './RedisBudgetLedger.js';
import { ShardedStreamWatcher } from './ShardedStreamWatcher.js';
import type { StreamWatcher } from './StreamWatcher.js';

export interface RedisStoreOptions extends RedisTarget {
  /** Put before every key. Default `RXGATE_REDIS_PREFIX`'s, `rxgate:`. */
  readonly prefix?: string;
  /** Default: `RXGATE_RETENTION_MAX_ITEMS` and `RXGATE_RETENTION_MAX_AGE_DAYS` at their defaults. */
  readonly retention?: RetentionPolicy;
  /** How long a conversation's lock lasts unless renewed. Default `RXGATE_REDIS_LEASE_MS`'s, 10 s. */
  readonly leaseMs?: number;
  /** Blocking connections that followers' wake-ups share on a single Redis (a cluster's are one per master). Default 2. */
  readonly blockingConnections?: number;
  readonly logger?: Logger;
}

/**
 * rxgate's store for several instances: stored responses, runs and their event logs (Redis
 * Streams) in one Redis or one Redis Cluster, so that any instance can answer for any of them. `instanceId` names this
 * instance as the owner of what it saves (`RedisCoordinator` keeps its lease) and its connections
 * in `CLIENT LIST` (`rxgate:<instanceId>`).
 */
export class RedisStore implements Store {
  readonly responses: RedisResponseStore;
  readonly runs: RedisRunStore;
  readonly events: RedisEventLog;
  readonly jobs: RedisJobStore;
  readonly idempotency: RedisIdempotencyStore;
  readonly conversations: RedisConversationStore;
  readonly usage: RedisUsageLedger;
  readonly budgets: RedisBudgetLedger;
  readonly keys: RedisKeys;
  /** This instance as a claimant of orphans; its coordinator says that it runs what it owns. */
  readonly claimant: Claimant;
  readonly #watcher: StreamWatcher;
  readonly #retention: RetentionPolicy;
  #closed = false;

  private constructor(
    readonly redis: RedisClient,
    readonly instanceId: string,
    {
      prefix = DEFAULTS.redisPrefix,
      retention = retentionPolicy(DEFAULTS),
      blockingConnections = 2,
      leaseMs = DEFAULTS.redisLeaseMs,
    }: RedisStoreOptions,
  ) {
    this.keys = new RedisKeys(prefix);
    this.#retention = retention;
    this.#watcher = isCluster(redis) ? new ShardedStreamWatcher(redis, this.keys) : new BlockingStreamWatcher(redis, blockingConnections);
    this.claimant = { id: instanceId, runsItsOwn: false };
    this.responses = new RedisResponseStore(redis, this.keys, retention, this.claimant);
    this.runs = new RedisRunStore(redis, this.keys, retention, this.claimant);
    this.idempotency = new RedisIdempotencyStore(redis, this.keys, instanceId);
    this.events = new RedisEventLog(redis, this.keys, this.#watcher, instanceId);
    this.jobs = new RedisJobStore(redis, this.keys);
    this.conversations = new RedisConversationStore(redis, prefix, retention, leaseMs);
    this.usage = new RedisUsageLedger(redis, this.keys, retention);
    this.budgets = new RedisBudgetLedger(redis, this.keys);
  }

  /** Connects and returns the store; a Redis that does not answer within `connectTimeoutMs` (default 5 s) is a `StoreError`. */
  static async open(options: RedisStoreOptions & { readonly connectTimeoutMs?: number }): Promise<RedisStore> {
    const instanceId = randomUUID();
    const redis = connectRedis(options, options.logger ?? silentLogger, `rxgate:${instanceId}`);
    const store = new RedisStore(redis, instanceId, options);
    const waitMs = options.connectTimeoutMs ?? 5_000;
    const connecting = (async () => {
      await redis.connect();
      await store.#watcher.connect();
    })();
    // Settled either way once the race is decided: a connection given up on must not become an unhandled rejection.
    connecting.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    // node-redis keeps retrying a first connection for ever; a start-up against a Redis that is not there should say so.
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from ${redactUrl(options.url)} within ${waitMs} ms`)), waitMs);
    });
    try {
      await Promise.race([connecting, timedOut]);
    } catch (error) {
      await store.close();
      throw new StoreError('connect to Redis', error);
    } finally {
      clearTimeout(timer);
    }
    return store;
  }

  /** How many streams this instance's followers watch now. */
  get watchedStreams(): number {
    return this.#watcher.watched;
  }

  /** Evicts what retention no longer keeps. Runs after every settled run or response: one pass at a time, however many end at once. */
  readonly enforceRetention = onePassAtATime(() =>
    redisCall('evict old items', async () => {
      const { redis, keys } = this;
      const { maxItems, maxAgeMs } = this.#retention;
      const now = Date.now();
      const expired = async (kind: 'runs' | 'responses') => {
        const old = await redis.zRangeByScore(keys.settled(kind), '-inf', now - maxAgeMs);
        const surplus = await redis.zRange(keys.settled(kind), 0, -(maxItems + 1));
        return [...new Set([...old, ...surplus])];
      };
      // Each item's keys share a slot, the indexes are keys of their own: items first, then their
      // index entries, so that a pass cut short leaves entries the next pass removes again.
      const responses = await expired('responses');
      await Promise.all(responses.map((id) => this.responses.bury(id, 'evicted')));
      // An entry whose response was already buried (a pass cut short after the burial) goes too.
      if (responses.length > 0) await redis.zRem(keys.settled('responses'), responses);
      const runs = await expired('runs');
      if (runs.length > 0) {
        await Promise.all(runs.map((id) => redis.del([keys.run(id), keys.events(id), keys.principal(id)])));
        await redis.zRem(keys.settled('runs'), runs);
      }
      // Tombstones are small but not free: ten times as many as responses, the oldest go first.
      await redis.zRemRangeByScore(keys.tombstones(), '-inf', now - maxAgeMs * TOMBSTONE_AGES);
      const buried = await redis.zRange(keys.tombstones(), 0, -(maxItems * TOMBSTONE_AGES + 1));
      if (buried.length > 0) {
        await Promise.all(buried.map((id) => redis.del(keys.tombstone(id))));
        await redis.zRem(keys.tombstones(), buried);
      }
      return responses.length + runs.length + buried.length + (await this.conversations.evict());
    }),
  );

  async checkWritable(): Promise<string | undefined> {
    if (!this.redis.isReady) return 'Redis is not reachable; reconnecting';
    return redisCall('write', () => this.redis.set(this.keys.readyProbe(), String(Date.now()), { PX: 60_000 })).then(
      () => undefined,
      (error: Error) => error.message,
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#watcher.close();
    if (this.redis.isReady) await this.redis.close().catch(() => undefined);
    if (this.redis.isOpen) this.redis.destroy();
  }
}

/** `url` (or comma-separated URLs) without passwords, for messages. */
export function redactUrl(url: string): string {
  return url
    .split(',')
    .map((one) => {
      try {
        const parsed = new URL(one.trim());
        if (parsed.password) parsed.password = '***';
        return parsed.toString();
      } catch {
        return 'the Redis URL';
      }
    })
    .join(',');
}
