import type Database from 'better-sqlite3';

/** One event of a detached run's log: `seq` orders it (and is its SSE id), `data` is its JSON. */
export interface LoggedEvent {
  readonly seq: number;
  readonly type: string;
  readonly data: string;
}

export interface EventLogOptions {
  /** How long appended events may wait before they are written in one transaction. Default 20 ms. */
  readonly flushMs?: number;
}

/**
 * The event logs of detached runs. `append` only buffers, so the streaming path never waits on
 * the disk; the buffer is written in one transaction per `flushMs`, and `read` sees written and
 * buffered events alike.
 */
export class EventLog {
  #pending: { streamId: string; event: LoggedEvent }[] = [];
  #timer: NodeJS.Timeout | undefined;
  readonly #insert: Database.Statement;
  readonly #select: Database.Statement;
  readonly #remove: Database.Statement;
  readonly #nextSeq: Database.Statement;
  readonly #writeAll: (rows: readonly { streamId: string; event: LoggedEvent }[]) => void;

  constructor(
    db: Database.Database,
    private readonly options: EventLogOptions = {},
  ) {
    this.#insert = db.prepare('INSERT OR IGNORE INTO events (stream_id, seq, type, data) VALUES (?, ?, ?, ?)');
    this.#select = db.prepare('SELECT seq, type, data FROM events WHERE stream_id = ? AND seq > ? ORDER BY seq');
    this.#remove = db.prepare('DELETE FROM events WHERE stream_id = ?');
    this.#nextSeq = db.prepare('SELECT COALESCE(MAX(seq), -1) + 1 FROM events WHERE stream_id = ?').pluck();
    this.#writeAll = db.transaction((rows: readonly { streamId: string; event: LoggedEvent }[]) => {
      for (const { streamId, event } of rows) this.#insert.run(streamId, event.seq, event.type, event.data);
    });
  }

  append(streamId: string, event: LoggedEvent): void {
    this.#pending.push({ streamId, event });
    this.#timer ??= setTimeout(() => this.flush(), this.options.flushMs ?? 20).unref();
  }

  /** Writes everything buffered now (a run that ends flushes before its final status is written). */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.length === 0) return;
    const rows = this.#pending;
    this.#pending = [];
    this.#writeAll(rows);
  }

  /** Writes one event after the last one written, now (recovery ends a log that a dead process left open). */
  appendLast(streamId: string, event: (seq: number) => Omit<LoggedEvent, 'seq'>): void {
    this.flush();
    const seq = this.#nextSeq.get(streamId) as number;
    const { type, data } = event(seq);
    this.#insert.run(streamId, seq, type, data);
  }

  /** Every event of `streamId` after sequence number `after`, in order. */
  read(streamId: string, after: number): LoggedEvent[] {
    const written = this.#select.all(streamId, after) as LoggedEvent[];
    const buffered = this.#pending.filter((row) => row.streamId === streamId && row.event.seq > after).map((row) => row.event);
    return [...written, ...buffered];
  }

  remove(streamId: string): void {
    this.#pending = this.#pending.filter((row) => row.streamId !== streamId);
    this.#remove.run(streamId);
  }
}
