import { Observable } from 'rxjs';
import { BlockingReader } from './BlockingReader.js';
import type { SingleRedisClient } from './connectRedis.js';
import type { StreamWatcher } from './StreamWatcher.js';

/**
 * The `StreamWatcher` of a single Redis: XREAD BLOCK over a bounded pool of blocking connections.
 * Each key is watched by one `BlockingReader` (the one with the fewest keys when it is first
 * watched), so a thousand followers cost `size` connections, not a thousand. Appends need no
 * announcement: the stream itself wakes the reader.
 */
export class BlockingStreamWatcher implements StreamWatcher {
  readonly needsAnnouncements = false;
  readonly #readers: BlockingReader[];
  readonly #blockers: SingleRedisClient[];
  readonly #readerOf = new Map<string, { reader: BlockingReader; count: number }>();

  constructor(commands: SingleRedisClient, size: number) {
    this.#blockers = Array.from({ length: size }, () => {
      const blocker = commands.duplicate() as SingleRedisClient;
      // The command connection reports Redis being down; an 'error' nobody listens to would end the process.
      blocker.on('error', () => undefined);
      return blocker;
    });
    this.#readers = this.#blockers.map((blocker) => new BlockingReader(blocker, commands));
  }

  async connect(): Promise<void> {
    await Promise.all(this.#blockers.map((blocker) => blocker.connect()));
  }

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

  get watched(): number {
    return this.#readerOf.size;
  }

  async close(): Promise<void> {
    for (const reader of this.#readers) reader.close();
    for (const blocker of this.#blockers) if (blocker.isOpen) blocker.destroy();
  }
}
