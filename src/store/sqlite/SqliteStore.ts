import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { DEFAULTS } from '../../config.js';
import { retentionPolicy, type RetentionPolicy } from '../retentionPolicy.js';
import type { Store } from '../Store.js';
import { enforceRetention } from './enforceRetention.js';
import { lockDataDir } from './lockDataDir.js';
import { openDatabase } from './openDatabase.js';
import { SqliteConversationStore } from './SqliteConversationStore.js';
import { SqliteEventLog } from './SqliteEventLog.js';
import { SqliteJobStore } from './SqliteJobStore.js';
import { SqliteIdempotencyStore } from './SqliteIdempotencyStore.js';
import { SqliteResponseStore } from './SqliteResponseStore.js';
import { SqliteRunStore } from './SqliteRunStore.js';
import { SqliteUsageLedger } from './SqliteUsageLedger.js';
import { SqliteBudgetLedger } from './SqliteBudgetLedger.js';
import { storeCall, WriteHealth } from './storeCall.js';

export interface SqliteStoreOptions {
  /** Directory of `rxgate.db`, created if missing and locked for this process; `':memory:'` keeps nothing across restarts. */
  readonly dataDir: string;
  /** Default: `RXGATE_RETENTION_MAX_ITEMS` and `RXGATE_RETENTION_MAX_AGE_DAYS` at their defaults. */
  readonly retention?: RetentionPolicy;
  /** See `SqliteEventLog`. Default 20 ms. */
  readonly flushMs?: number;
}

/** rxgate's embedded store, the default: stored responses, runs and their event logs in one SQLite file. */
export class SqliteStore implements Store {
  readonly responses: SqliteResponseStore;
  readonly runs: SqliteRunStore;
  readonly events: SqliteEventLog;
  readonly jobs: SqliteJobStore;
  readonly idempotency: SqliteIdempotencyStore;
  readonly conversations: SqliteConversationStore;
  readonly usage: SqliteUsageLedger;
  readonly budgets: SqliteBudgetLedger;
  readonly #db: Database.Database;
  readonly #retention: RetentionPolicy;
  readonly #health = new WriteHealth();
  readonly #unlock: () => void;

  constructor({ dataDir, retention = retentionPolicy(DEFAULTS), flushMs }: SqliteStoreOptions) {
    this.#unlock = dataDir === ':memory:' ? () => undefined : lockDataDir(dataDir);
    try {
      this.#db = openDatabase(dataDir);
    } catch (error) {
      this.#unlock();
      throw error;
    }
    this.#retention = retention;
    this.responses = new SqliteResponseStore(this.#db, this.#health);
    this.runs = new SqliteRunStore(this.#db, this.#health);
    // A new id each time the file is opened: a record pending on another one was left by a process that died.
    this.idempotency = new SqliteIdempotencyStore(this.#db, this.#health, randomUUID());
    this.events = new SqliteEventLog(this.#db, this.#health, { flushMs });
    this.jobs = new SqliteJobStore(this.#db, this.#health);
    this.conversations = new SqliteConversationStore(this.#db, this.#health);
    this.usage = new SqliteUsageLedger(this.#db, this.#health);
    this.budgets = new SqliteBudgetLedger(this.#db, this.#health);
  }

  async enforceRetention(): Promise<number> {
    await this.events.flush();
    return this.#health.write(
      'evict old items',
      () => enforceRetention(this.#db, this.#retention) + this.conversations.evict(this.#retention),
    );
  }

  async checkWritable(): Promise<string | undefined> {
    const probe = await storeCall('write', () =>
      this.#db
        .prepare("INSERT INTO meta (key, value) VALUES ('ready_probe', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        .run(String(Date.now())),
    ).then(
      () => undefined,
      (error: Error) => error.message,
    );
    return probe ?? this.#health.failure;
  }

  async close(): Promise<void> {
    if (!this.#db.open) return;
    await this.events.flush().catch(() => undefined);
    this.#db.close();
    this.#unlock();
  }
}
