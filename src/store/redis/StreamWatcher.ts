import { Observable } from 'rxjs';
import { BlockingReader } from './BlockingReader.js';
import type { RedisClient } from './connectRedis.js';

/**
 * Wake-ups for followers of Redis Streams, over a bounded pool of blocking connections: each key
 * is watched by one `BlockingReader` (the one with the fewest keys when it is first watched), so a
 * thousand followers cost `size` connections, not a thousand.
 */
export class StreamWatcher {
  readonly #readers: BlockingReader[];
  readonly #blockers: RedisClient[];
  readonly #readerOf = new Map<string, { reader: BlockingReader; count: number }>();

  constructor(commands: RedisClient, size: number) {
    this.#blockers = Array.from({ length: size }, () => {
      const blocker = commands.duplicate() as RedisClient;
      // The command connection reports Redis being down; an 'error' nobody listens to would end the process.
      blocker.on('error', () => undefined);
      return blocker;
    });
    this.#readers = this.#blockers.map((blocker) => new BlockingReader(blocker, commands));
  }

  async connect(): Promise<void> {
    await Promise.all(this.#blockers.map((blocker) => blocker.connect()));
  }

  /** Emits after entries are stored in stream `key` (and once when its frontier is known): a hint to read. */
  watch(key: string): Observable<void> {
    return new Observable<void>((subscriber) => {
      let assigned = this.#readerOf.get(key);
      if (!assigned) {
        const reader = this.#readers.reduce((least, reader) => (reader.size < least.size ? reader : least));
        assigned = { reader, count: 0 };
        this.#readerOf.set(key, assigned);
      }
      assigned.count++;
      const stop = assigned.reader.listen(key, () => subscriber.next());
      return () => {
        stop();
        if (--assigned.count === 0) this.#readerOf.delete(key);
      };
    });
  }

  /** How many streams are watched now (the leak check reads it). */
  get watched(): number {
    return this.#readerOf.size;
  }

  async close(): Promise<void> {
    for (const reader of this.#readers) reader.close();
    for (const blocker of this.#blockers) if (blocker.isOpen) blocker.destroy();
  }
}
