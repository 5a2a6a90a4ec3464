import type Database from 'better-sqlite3';
/** What the store reads of a run; the rest of its JSON is kept as it is. */
export interface RunRecord {
  readonly id: string;
  readonly status: string;
}

/** Runs, by id, as the JSON `GET /v1/runs/{id}` answers. */
export class RunStore {
  readonly #upsert: Database.Statement;
  readonly #select: Database.Statement;
  readonly #unfinished: Database.Statement;

  constructor(db: Database.Database) {
    this.#upsert = db.prepare(
      'INSERT INTO runs (id, created_at, status, body) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET status = excluded.status, body = excluded.body',
    );
    this.#select = db.prepare('SELECT body FROM runs WHERE id = ?');
    this.#unfinished = db.prepare("SELECT body FROM runs WHERE status IN ('queued', 'running')").pluck();
  }

  save(run: RunRecord): void {
    this.#upsert.run(run.id, Date.now(), run.status, JSON.stringify(run));
  }

  /** `R` is the shape the caller stored. */
  get<R extends RunRecord>(id: string): R | undefined {
    const row = this.#select.get(id) as { body: string } | undefined;
    return row ? (JSON.parse(row.body) as R) : undefined;
  }

  /** The runs still queued or running: after a restart, what the previous process left in flight. */
  unfinished<R extends RunRecord>(): R[] {
    return (this.#unfinished.all() as string[]).map((body) => JSON.parse(body) as R);
  }
}
