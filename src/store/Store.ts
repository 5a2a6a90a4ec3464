import type Database from 'better-sqlite3';
import { DEFAULTS } from '../config.js';
import { EventLog } from './EventLog.js';
import { enforceRetention, retentionPolicy, type RetentionPolicy } from './enforceRetention.js';
import { openDatabase } from './openDatabase.js';
import { ResponseStore } from './ResponseStore.js';
import { RunStore } from './RunStore.js';

export interface StoreOptions {
  /** Directory of `rxgate.db`, created if missing; `':memory:'` keeps nothing across restarts. */
  readonly dataDir: string;
  /** Default: `RXGATE_RETENTION_MAX_ITEMS` and `RXGATE_RETENTION_MAX_AGE_DAYS` at their defaults. */
  readonly retention?: RetentionPolicy;
  /** See `EventLog`. Default 20 ms. */
  readonly flushMs?: number;
}

/** rxgate's embedded SQLite store: stored responses, runs, and their event logs. */
export class Store {
  readonly responses: ResponseStore;
  readonly runs: RunStore;
  readonly events: EventLog;
  readonly #db: Database.Database;
  readonly #retention: RetentionPolicy;

  constructor({ dataDir, retention = retentionPolicy(DEFAULTS), flushMs }: StoreOptions) {
    this.#db = openDatabase(dataDir);
    this.#retention = retention;
    this.responses = new ResponseStore(this.#db);
    this.runs = new RunStore(this.#db);
    this.events = new EventLog(this.#db, { flushMs });
  }

  /** Evicts what the retention policy no longer keeps; called after something settles. */
  enforceRetention(): number {
    this.events.flush();
    return enforceRetention(this.#db, this.#retention);
  }

  /** Runs `work` in one transaction: all its writes, or none. */
  transaction<T>(work: () => T): T {
    this.events.flush();
    return this.#db.transaction(work)();
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
