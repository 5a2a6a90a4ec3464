import type Database from 'better-sqlite3';
import type { RunPage, RunRecord, RunStore } from '../RunStore.js';
import { storeCall, type WriteHealth } from './storeCall.js';

/** Runs in SQLite, each row the run's JSON. */
export class SqliteRunStore implements RunStore {
  readonly #upsert: Database.Statement;
  readonly #select: Database.Statement;
  readonly #unfinished: Database.Statement;
  readonly #newest: Database.Statement;
  readonly #after: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly health: WriteHealth,
  ) {
    this.#upsert = db.prepare(
      'INSERT INTO runs (id, created_at, status, body) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET status = excluded.status, body = excluded.body',
    );
    this.#select = db.prepare('SELECT body FROM runs WHERE id = ?');
    this.#unfinished = db.prepare("SELECT body FROM runs WHERE status IN ('queued', 'running')").pluck();
    // The rowid breaks ties of one millisecond in the order the runs were made.
    this.#newest = db.prepare('SELECT body FROM runs ORDER BY created_at DESC, rowid DESC LIMIT ?').pluck();
    this.#after = db
      .prepare(
        'SELECT runs.body FROM runs, runs AS cursor WHERE cursor.id = ? AND (runs.created_at, runs.rowid) < (cursor.created_at, cursor.rowid) ORDER BY runs.created_at DESC, runs.rowid DESC LIMIT ?',
      )
      .pluck();
  }

  save(run: RunRecord): Promise<void> {
    return this.health.write('save a run', () => void this.#upsert.run(run.id, Date.now(), run.status, JSON.stringify(run)));
  }

  get<R extends RunRecord>(id: string): Promise<R | undefined> {
    return storeCall('read a run', () => {
      const row = this.#select.get(id) as { body: string } | undefined;
      return row ? (JSON.parse(row.body) as R) : undefined;
    });
  }

  /** In one process with the data directory locked, every unfinished run at start-up is a dead process's. */
  unfinished<R extends RunRecord>(): Promise<R[]> {
    return storeCall('read unfinished runs', () => (this.#unfinished.all() as string[]).map((body) => JSON.parse(body) as R));
  }

  list<R extends RunRecord>({ limit, after }: RunPage): Promise<R[]> {
    return storeCall('list runs', () => {
      const bodies = (after === undefined ? this.#newest.all(limit) : this.#after.all(after, limit)) as string[];
      return bodies.map((body) => JSON.parse(body) as R);
    });
  }
}
