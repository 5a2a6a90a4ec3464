import type Database from 'better-sqlite3';
import { Observable } from 'rxjs';
import type { EventLog, LoggedEvent } from '../EventLog.js';
import { storeCall, type WriteHealth } from './storeCall.js';

export interface SqliteEventLogOptions {
  /** How long appended events may wait before they are written in one transaction. Default 20 ms. */
  readonly flushMs?: number;
}

interface Batch {
  readonly rows: { streamId: string; event: LoggedEvent }[];
  readonly written: Promise<void>;
  settle(error?: unknown): void;
}

function newBatch(): Batch {
  let settle!: (error?: unknown) => void;
  const written = new Promise<void>((resolve, reject) => (settle = (error) => (error === undefined ? resolve() : reject(error))));
  // A batch nobody awaits (a run that ended meanwhile) must not become an unhandled rejection.
  written.catch(() => undefined);
  return { rows: [], written, settle };
}

/**
 * Event logs in SQLite. `append` joins the batch that is written in one transaction per
 * `flushMs` (the streaming path never waits on the disk per event) and resolves once that batch
 * is written; only then is a follower woken, so nobody reads what a crash could take back.
 */
export class SqliteEventLog implements EventLog {
  #batch: Batch | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #wakers = new Map<string, Set<() => void>>();
  readonly #insert: Database.Statement;
  readonly #select: Database.Statement;
  readonly #last: Database.Statement;
  readonly #remove: Database.Statement;
  readonly #expire: Database.Statement;
  readonly #writeAll: (rows: readonly { streamId: string; event: LoggedEvent }[]) => void;

  constructor(
    db: Database.Database,
    private readonly health: WriteHealth,
    private readonly options: SqliteEventLogOptions = {},
  ) {
    // A sequence number is stored once: a second event at the same one is an error, never silently dropped.
    this.#insert = db.prepare('INSERT INTO events (stream_id, seq, type, data) VALUES (?, ?, ?, ?)');
    this.#select = db.prepare('SELECT seq, type, data FROM events WHERE stream_id = ? AND seq > ? ORDER BY seq LIMIT ?');
    this.#last = db.prepare('SELECT seq, type, data FROM events WHERE stream_id = ? ORDER BY seq DESC LIMIT 1');
    this.#remove = db.prepare('DELETE FROM events WHERE stream_id = ?');
    this.#expire = db.prepare(
      'INSERT INTO event_expiry (stream_id, expires_at) VALUES (?, ?) ON CONFLICT (stream_id) DO UPDATE SET expires_at = excluded.expires_at',
    );
    this.#writeAll = db.transaction((rows: readonly { streamId: string; event: LoggedEvent }[]) => {
      for (const { streamId, event } of rows) this.#insert.run(streamId, event.seq, event.type, event.data);
    });
  }

  append(streamId: string, events: readonly LoggedEvent[]): Promise<void> {
    const batch = (this.#batch ??= newBatch());
    for (const event of events) batch.rows.push({ streamId, event });
    this.#timer ??= setTimeout(() => void this.flush(), this.options.flushMs ?? 20).unref();
    return batch.written;
  }

  /** Writes the pending batch now (closing the store does, so that nothing appended is lost). */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#batch;
    if (!batch) return Promise.resolve();
    this.#batch = undefined;
    const written = this.health.write('write events', () => this.#writeAll(batch.rows));
    written.then(
      () => {
        batch.settle();
        for (const streamId of new Set(batch.rows.map((row) => row.streamId))) this.#wake(streamId);
      },
      (error: unknown) => batch.settle(error),
    );
    return batch.written;
  }

  read(streamId: string, after: number, limit: number): Promise<LoggedEvent[]> {
    return storeCall('read events', () => this.#select.all(streamId, after, limit) as LoggedEvent[]);
  }

  last(streamId: string): Promise<LoggedEvent | undefined> {
    return storeCall('read events', () => this.#last.get(streamId) as LoggedEvent | undefined);
  }

  async appendLast(streamId: string, event: (seq: number) => Omit<LoggedEvent, 'seq'>): Promise<LoggedEvent> {
    await this.flush();
    const logged = await this.health.write('write events', () => {
      const seq = ((this.#last.get(streamId) as LoggedEvent | undefined)?.seq ?? -1) + 1;
      const next = { seq, ...event(seq) };
      this.#insert.run(streamId, next.seq, next.type, next.data);
      return next;
    });
    this.#wake(streamId);
    return logged;
  }

  remove(streamId: string): Promise<void> {
    return this.health.write('remove events', () => void this.#remove.run(streamId));
  }

  expire(streamId: string, afterMs: number): Promise<void> {
    return this.health.write('expire events', () => void this.#expire.run(streamId, Date.now() + afterMs));
  }

  appended$(streamId: string): Observable<void> {
    return new Observable<void>((subscriber) => {
      const wake = () => subscriber.next();
      const wakers = this.#wakers.get(streamId) ?? new Set();
      this.#wakers.set(streamId, wakers.add(wake));
      return () => {
        wakers.delete(wake);
        if (wakers.size === 0) this.#wakers.delete(streamId);
      };
    });
  }

  #wake(streamId: string): void {
    for (const wake of this.#wakers.get(streamId) ?? []) wake();
  }
}
