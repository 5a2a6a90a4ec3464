import type { Observable } from 'rxjs';
import type { EventLog, LoggedEvent } from '../EventLog.js';
import type { RedisClient } from './connectRedis.js';
import { redisCall } from './redisCall.js';
import type { RedisKeys } from './redisKeys.js';
import { entryId, seqOf } from './streamId.js';
import type { StreamWatcher } from './StreamWatcher.js';

interface Entry {
  readonly id: string;
  readonly message: Record<string, string>;
}

const toEvent = ({ id, message }: Entry): LoggedEvent => ({ seq: seqOf(id), type: message.type!, data: message.data! });

/** Tries of `appendLast` when another instance appended between its read of the last event and its write. */
const APPEND_LAST_TRIES = 10;

/**
 * Event logs as Redis Streams, one per run or response, entry id `0-<seq + 1>`: XADD refuses a
 * sequence number already stored, so two writers can never both store event n, and a new run's
 * stream (a new id) starts at 0 whatever an old one held. `appended$` is this instance's
 * `StreamWatcher`, so it hears appends by any instance; on a Redis Cluster each append announces
 * itself for it, in the same MULTI as its entries (the channel is in the stream's slot).
 */
export class RedisEventLog implements EventLog {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly watcher: StreamWatcher,
  ) {}

  append(streamId: string, events: readonly LoggedEvent[]): Promise<void> {
    return redisCall('write events', async () => {
      if (events.length === 0) return;
      const key = this.keys.events(streamId);
      const batch = this.redis.multi();
      for (const { seq, type, data } of events) batch.xAdd(key, entryId(seq), { type, data });
      if (this.watcher.needsAnnouncements) batch.sPublish(this.keys.appended(key), entryId(events.at(-1)!.seq));
      // MULTI does not roll back: a refused entry is an error reply among the others, thrown here.
      await batch.exec();
    });
  }

  read(streamId: string, after: number, limit: number): Promise<LoggedEvent[]> {
    return redisCall('read events', async () => {
      const entries = await this.redis.xRange(this.keys.events(streamId), entryId(after + 1), '+', { COUNT: limit });
      return (entries as Entry[]).map(toEvent);
    });
  }

  last(streamId: string): Promise<LoggedEvent | undefined> {
    return redisCall('read events', async () => {
      const [entry] = (await this.redis.xRevRange(this.keys.events(streamId), '+', '-', { COUNT: 1 })) as Entry[];
      return entry && toEvent(entry);
    });
  }

  appendLast(streamId: string, event: (seq: number) => Omit<LoggedEvent, 'seq'>): Promise<LoggedEvent> {
    return redisCall('write events', async () => {
      for (let attempt = 1; ; attempt++) {
        const seq = ((await this.last(streamId))?.seq ?? -1) + 1;
        const next = { seq, ...event(seq) };
        try {
          await this.append(streamId, [next]);
          return next;
        } catch (error) {
          // Somebody stored event `seq` first: read the new last one and try after it.
          if (attempt >= APPEND_LAST_TRIES) throw error;
        }
      }
    });
  }

  remove(streamId: string): Promise<void> {
    return redisCall('remove events', async () => void (await this.redis.del(this.keys.events(streamId))));
  }

  appended$(streamId: string): Observable<void> {
    return this.watcher.watch(this.keys.events(streamId));
  }
}
