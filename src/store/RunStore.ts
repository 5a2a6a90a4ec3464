import type Database from 'better-sqlite3';
import type { RunObject } from '../runs/runObject.js';

/** Runs, by id, as the JSON `GET /v1/runs/{id}` answers. */
export class RunStore {
  readonly #upsert: Database.Statement;
  readonly #select: Database.Statement;

  constructor(db: Database.Database) {
    this.#upsert = db.prepare(
      'INSERT INTO runs (id, created_at, status, body) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET status = excluded.status, body = excluded.body',
    );
    this.#select = db.prepare('SELECT body FROM runs WHERE id = ?');
  }

  save(run: RunObject): void {
    this.#upsert.run(run.id, Date.now(), run.status, JSON.stringify(run));
  }

  get(id: string): RunObject | undefined {
    const row = this.#select.get(id) as { body: string } | undefined;
    return row ? (JSON.parse(row.body) as RunObject) : undefined;
  }
}
