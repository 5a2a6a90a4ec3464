import type Database from 'better-sqlite3';
import { EventLog } from './EventLog.js';
import { enforceRetention, type RetentionPolicy } from './enforceRetention.js';
import { openDatabase } from './openDatabase.js';
import { recoverInterrupted } from './recoverInterrupted.js';
import { ResponseStore } from './ResponseStore.js';
import { RunStore } from './RunStore.js';

export interface StoreOptions {
  /** Directory of `rxgate.db`, created if missing; `':memory:'` keeps nothing across restarts. */
  readonly dataDir: string;
  /** Default: 10 000 items, 30 days. */
  readonly retention?: RetentionPolicy;
  /** See `EventLog`. Default 20 ms. */
  readonly flushMs?: number;
}

const DEFAULT_RETENTION: RetentionPolicy = { maxItems: 10_000, maxAgeMs: 30 * 24 * 3600 * 1000 };

/**
 * rxgate's embedded SQLite store: stored responses, runs, and their event logs. Opening it marks
 * what a previous process left in flight as failed.
 */
export class Store {
  readonly responses: ResponseStore;
  readonly runs: RunStore;
  readonly events: EventLog;
  readonly recovered: number;
  readonly #db: Database.Database;
  readonly #retention: RetentionPolicy;

  constructor({ dataDir, retention = DEFAULT_RETENTION, flushMs }: StoreOptions) {
    this.#db = openDatabase(dataDir);
    this.#retention = retention;
    this.recovered = recoverInterrupted(this.#db);
    this.responses = new ResponseStore(this.#db);
    this.runs = new RunStore(this.#db);
    this.events = new EventLog(this.#db, { flushMs });
  }

  /** Evicts what the retention policy no longer keeps; called after something settles. */
  enforceRetention(): number {
    this.events.flush();
    return enforceRetention(this.#db, this.#retention);
  }

  /** Undefined when a write goes through, else why not (for the readiness check). */
  checkWritable(): string | undefined {
    try {
      this.#db
        .prepare("INSERT INTO meta (key, value) VALUES ('ready_probe', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        .run(String(Date.now()));
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  close(): void {
    if (!this.#db.open) return;
    this.events.flush();
    this.#db.close();
  }
}
