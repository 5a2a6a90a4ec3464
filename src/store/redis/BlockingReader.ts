import { setTimeout as delay } from 'node:timers/promises';
import type { SingleRedisClient } from './connectRedis.js';
import { isLater } from './streamId.js';

interface Watched {
  /** The last entry id this reader knows of; undefined until it was read, and the key is not watched before. */
  lastId: string | undefined;
  readonly listeners: Set<() => void>;
}

/** Longest one XREAD blocks; a new key cuts it short with CLIENT UNBLOCK, so this only bounds a lost unblock. */
const BLOCK_MS = 5_000;
/** Entries one XREAD returns per stream: only the last id is kept, the events are read by their followers. */
const COUNT = 1_000;

/**
 * One blocking connection that watches many streams with XREAD BLOCK from each one's frontier (the
 * last entry it knows of), and calls a key's listeners after entries beyond it were stored, by
 * any instance. A key's frontier is read when its first listener arrives, and its listeners are
 * called once then: whatever was stored before is the follower's own read's to find, whatever
 * after is beyond the frontier. Nothing is published and nothing is lost between a subscription
 * and a read.
 */
export class BlockingReader {
  readonly #watched = new Map<string, Watched>();
  #blocking = false;
  #looping = false;
  #closed = false;
  #clientId: number | undefined;

  constructor(
    private readonly blocker: SingleRedisClient,
    private readonly commands: SingleRedisClient,
  ) {}

  get size(): number {
    return this.#watched.size;
  }

  /** Calls `listener` after entries are stored in `key`; returns its removal. */
  listen(key: string, listener: () => void): () => void {
    let watched = this.#watched.get(key);
    if (!watched) {
      watched = { lastId: undefined, listeners: new Set() };
      this.#watched.set(key, watched);
      void this.#readFrontier(key, watched);
    }
    watched.listeners.add(listener);
    return () => {
      watched.listeners.delete(listener);
      if (watched.listeners.size === 0 && this.#watched.get(key) === watched) this.#watched.delete(key);
    };
  }

  async #readFrontier(key: string, watched: Watched): Promise<void> {
    for (let attempt = 0; !this.#closed && this.#watched.get(key) === watched; attempt++) {
      try {
        const [last] = (await this.commands.xRevRange(key, '+', '-', { COUNT: 1 })) as { id: string }[];
        watched.lastId = last?.id ?? '0-0';
        for (const listener of watched.listeners) listener();
        this.#kick();
        return;
      } catch {
        await delay(Math.min(100 * 2 ** attempt, 2_000));
      }
    }
  }

  /** Makes the loop take the current keys: starts it, or cuts its XREAD short. */
  #kick(): void {
    if (!this.#looping) {
      void this.#loop();
      return;
    }
    if (this.#blocking && this.#clientId !== undefined) void this.commands.clientUnblock(this.#clientId).catch(() => undefined);
  }

  async #loop(): Promise<void> {
    this.#looping = true;
    let failures = 0;
    try {
      while (!this.#closed) {
        const streams = [...this.#watched].filter(([, w]) => w.lastId !== undefined).map(([key, w]) => ({ key, id: w.lastId! }));
        if (streams.length === 0) return;
        let reply;
        try {
          this.#clientId ??= await this.blocker.clientId();
          this.#blocking = true;
          reply = (await this.blocker.xRead(streams, { BLOCK: BLOCK_MS, COUNT: COUNT })) as
            { name: string; messages: { id: string }[] }[] | null;
          failures = 0;
        } catch {
          // The connection failed (it reconnects by itself, with a new client id).
          this.#clientId = undefined;
          await delay(Math.min(100 * 2 ** failures++, 2_000));
          continue;
        } finally {
          this.#blocking = false;
        }
        for (const { name, messages } of reply ?? []) {
          const watched = this.#watched.get(name);
          const lastId = messages.at(-1)?.id;
          if (!watched || lastId === undefined || !isLater(lastId, watched.lastId)) continue;
          watched.lastId = lastId;
          for (const listener of watched.listeners) listener();
        }
      }
    } finally {
      this.#looping = false;
    }
  }

  close(): void {
    this.#closed = true;
    this.#watched.clear();
    this.#kick();
  }
}
