import type Database from 'better-sqlite3';
import { DEFAULT_OWNER } from '../../principal.js';
import type { ListedRun, RunPage, RunRecord, RunStore } from '../RunStore.js';
import { storeCall, type WriteHealth } from './storeCall.js';

/** Runs in SQLite, each row the run's JSON; an unfinished save of a finished run is dropped (its end stands). */
export class SqliteRunStore implements RunStore {
  readonly #upsert: Database.Statement;
  readonly #select: Database.Statement;
  readonly #unfinished: Database.Statement;
  readonly #owner: Database.Statement;
  readonly #newest: Database.Statement;
  readonly #after: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly health: WriteHealth,
  ) {
    this.#upsert = db.prepare(
      // A finished run is never taken back to queued or running: a save made while it ran, landing after its end, changes nothing.
      "INSERT INTO runs (id, created_at, status, body, owner) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET status = excluded.status, body = excluded.body, owner = coalesce(runs.owner, excluded.owner) WHERE runs.status IN ('queued', 'running') OR excluded.status NOT IN ('queued', 'running')",
    );
    this.#select = db.prepare('SELECT body FROM runs WHERE id = ?');
    this.#owner = db.prepare('SELECT coalesce(owner, ?) FROM runs WHERE id = ?').pluck();
    this.#unfinished = db.prepare("SELECT body FROM runs WHERE status IN ('queued', 'running')").pluck();
    // The rowid breaks ties of one millisecond in the order the runs were made.
    this.#newest = db.prepare('SELECT body, coalesce(owner, ?) AS owner FROM runs ORDER BY created_at DESC, rowid DESC LIMIT ?');
    this.#after = db.prepare(
      'SELECT runs.body, coalesce(runs.owner, ?) AS owner FROM runs, runs AS cursor WHERE cursor.id = ? AND (runs.created_at, runs.rowid) < (cursor.created_at, cursor.rowid) ORDER BY runs.created_at DESC, runs.rowid DESC LIMIT ?',
    );
  }

  save(run: RunRecord, owner?: string): Promise<void> {
    return this.health.write('save a run', () => void this.#upsert.run(run.id, Date.now(), run.status, JSON.stringify(run), owner ?? null));
  }

  owner(id: string): Promise<string | undefined> {
    return storeCall('read a run', () => this.#owner.get(DEFAULT_OWNER, id) as string | undefined);
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

  list<R extends RunRecord>({ limit, after }: RunPage): Promise<ListedRun<R>[]> {
    return storeCall('list runs', () => {
      const rows = (after === undefined ? this.#newest.all(DEFAULT_OWNER, limit) : this.#after.all(DEFAULT_OWNER, after, limit)) as {
        body: string;
        owner: string;
      }[];
      return rows.map(({ body, owner }) => ({ run: JSON.parse(body) as R, owner }));
    });
  }
}
