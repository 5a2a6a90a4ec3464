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
 * Appends entries (`ARGV[3..]`: id, type, data, …) to the stream `KEYS[1]` unless its run or
 * response (`KEYS[2]`, `KEYS[3]`, all three in one slot) is owned by another instance than
 * `ARGV[1]`: the owner's appends after a sweeper claimed its item are dropped (0), as its saves
 * are. On a cluster, `ARGV[2]` names the channel that announces the last entry. A refused entry (a
 * sequence number already stored) is an error; the entries before it stay, as in a MULTI.
 */
const APPEND = `
for _, item in ipairs({ KEYS[2], KEYS[3] }) do
  local owner = redis.call('HGET', item, 'owner')
  if owner and owner ~= ARGV[1] then return 0 end
end
for i = 3, #ARGV, 3 do
  redis.call('XADD', KEYS[1], ARGV[i], 'type', ARGV[i + 1], 'data', ARGV[i + 2])
end
if ARGV[2] ~= '' then redis.call('SPUBLISH', ARGV[2], ARGV[#ARGV - 2]) end
return 1`;

/**
 * Event logs as Redis Streams, one per run or response, entry id `0-<seq + 1>`: XADD refuses a
 * sequence number already stored, so two writers can never both store event n, and a new run's
 * stream (a new id) starts at 0 whatever an old one held. An instance that another has taken a
 * run over from (a sweeper claimed it) appends nothing more to its log (see `APPEND`).
 * `appended$` is this instance's `StreamWatcher`, so it hears appends by any instance; on a Redis
 * Cluster each append announces itself for it, in the same script as its entries (the channel is
 * in the stream's slot).
 */
export class RedisEventLog implements EventLog {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly watcher: StreamWatcher,
    /** This instance, as the `owner` its saves write. */
    private readonly instanceId: string,
  ) {}

  append(streamId: string, events: readonly LoggedEvent[]): Promise<void> {
    return redisCall('write events', async () => {
      if (events.length === 0) return;
      const key = this.keys.events(streamId);
      const channel = this.watcher.needsAnnouncements ? this.keys.appended(key) : '';
      const entries = events.flatMap(({ seq, type, data }) => [entryId(seq), type, data]);
      await this.redis.eval(APPEND, {
        keys: [key, this.keys.run(streamId), this.keys.response(streamId)],
        arguments: [this.instanceId, channel, ...entries],
      });
    });
  }

  /** Nothing to do: every append is written as it is made. */
  flush(): Promise<void> {
    return Promise.resolve();
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

  expire(streamId: string, afterMs: number): Promise<void> {
    return redisCall('expire events', async () => void (await this.redis.pExpire(this.keys.events(streamId), afterMs)));
  }

  appended$(streamId: string): Observable<void> {
    return this.watcher.watch(this.keys.events(streamId));
  }
}
