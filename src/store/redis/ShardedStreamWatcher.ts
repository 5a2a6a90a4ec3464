import { Observable } from 'rxjs';
import { setTimeout as delay } from 'node:timers/promises';
import type { RedisCluster } from './connectRedis.js';
import type { RedisKeys } from './redisKeys.js';
import { isLater } from './streamId.js';
import type { StreamWatcher } from './StreamWatcher.js';

interface Watched {
  /** The last entry id known of; undefined until the subscription is in place and the stream was read once. */
  frontier: string | undefined;
  subscribed: boolean;
  readonly listeners: Set<() => void>;
  /** This watch's own listener on the channel, so that its removal leaves a later watch of the same key alone. */
  readonly onAnnouncement: (lastId: string) => void;
}

/** How often each watched stream's last entry is read again, so that a lost announcement delays a wake-up by this much, never for ever. */
const RECHECK_MS = 1_000;

/**
 * The `StreamWatcher` of a Redis Cluster, where one XREAD cannot span streams of different slots.
 * Each append is announced with `SPUBLISH` of its last entry id on a channel hash-tagged like the
 * stream (`RedisKeys.appended`), in the append's own script; a watched stream's channel is
 * subscribed with `SSUBSCRIBE` on the connection node-redis keeps to that slot's master, so the
 * connections are one per master, whatever the number of followers. The stream stays the source
 * of truth: an announcement only moves the frontier (the last entry id known of) and wakes the
 * followers, who read from their own cursors. An announcement is lost when its connection drops
 * or its slot moves, so every watched stream's last entry is also read every `RECHECK_MS`.
 *
 * A stream's first follower subscribes, then reads the frontier and wakes its followers once:
 * whatever was stored before the subscription is their own read's to find, whatever after is
 * announced. Its last follower's leaving unsubscribes.
 */
export class ShardedStreamWatcher implements StreamWatcher {
  readonly needsAnnouncements = true;
  readonly #watched = new Map<string, Watched>();
  #recheck: NodeJS.Timeout | undefined;
  #rechecking = false;
  #closed = false;

  constructor(
    private readonly redis: RedisCluster,
    private readonly keys: RedisKeys,
  ) {}

  async connect(): Promise<void> {
    this.#recheck = setInterval(() => void this.#recheckAll(), RECHECK_MS).unref();
  }

  get watched(): number {
    return this.#watched.size;
  }

  watch(key: string): Observable<void> {
    return new Observable<void>((subscriber) => {
      let watched = this.#watched.get(key);
      if (!watched) {
        const created: Watched = {
          frontier: undefined,
          subscribed: false,
          listeners: new Set(),
          onAnnouncement: (lastId) => {
            if (created.frontier !== undefined) this.#advance(created, lastId);
          },
        };
        watched = created;
        this.#watched.set(key, created);
        void this.#subscribe(key, created);
      }
      const listener = () => subscriber.next();
      const current = watched;
      current.listeners.add(listener);
      return () => {
        current.listeners.delete(listener);
        if (current.listeners.size > 0 || this.#watched.get(key) !== current) return;
        this.#watched.delete(key);
        // A subscription still under way is undone by #subscribe once it is in place.
        if (current.subscribed) void this.#unsubscribe(key, current);
      };
    });
  }

  #isCurrent(key: string, watched: Watched): boolean {
    return !this.#closed && this.#watched.get(key) === watched;
  }

  async #subscribe(key: string, watched: Watched): Promise<void> {
    const channel = this.keys.appended(key);
    for (let attempt = 0; this.#isCurrent(key, watched); attempt++) {
      try {
        if (!watched.subscribed) {
          await this.redis.sSubscribe(channel, watched.onAnnouncement);
          watched.subscribed = true;
          if (!this.#isCurrent(key, watched)) return this.#unsubscribe(key, watched);
        }
        const lastId = await this.#lastId(key);
        if (!this.#isCurrent(key, watched)) return;
        watched.frontier = lastId;
        for (const listener of watched.listeners) listener();
        return;
      } catch {
        await delay(Math.min(100 * 2 ** attempt, 2_000));
      }
    }
  }

  async #unsubscribe(key: string, watched: Watched): Promise<void> {
    watched.subscribed = false;
    await this.redis.sUnsubscribe(this.keys.appended(key), watched.onAnnouncement).catch(() => undefined);
  }

  async #lastId(key: string): Promise<string> {
    const [last] = (await this.redis.xRevRange(key, '+', '-', { COUNT: 1 })) as { id: string }[];
    return last?.id ?? '0-0';
  }

  #advance(watched: Watched, lastId: string): void {
    if (!isLater(lastId, watched.frontier)) return;
    watched.frontier = lastId;
    for (const listener of watched.listeners) listener();
  }

  async #recheckAll(): Promise<void> {
    // A pass slower than the period (Redis is away) is not joined by another.
    if (this.#rechecking) return;
    this.#rechecking = true;
    try {
      const known = [...this.#watched].filter(([, watched]) => watched.frontier !== undefined);
      await Promise.all(
        known.map(async ([key, watched]) => {
          const lastId = await this.#lastId(key).catch(() => undefined);
          if (lastId !== undefined && this.#watched.get(key) === watched) this.#advance(watched, lastId);
        }),
      );
    } finally {
      this.#rechecking = false;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#recheck);
    const watched = [...this.#watched];
    this.#watched.clear();
    await Promise.all(watched.filter(([, each]) => each.subscribed).map(([key, each]) => this.#unsubscribe(key, each)));
  }
}
