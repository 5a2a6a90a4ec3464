import type Database from 'better-sqlite3';
import type { ClaimOptions, IdempotencyRecord, IdempotencyStore, StandingRecord } from '../IdempotencyStore.js';
import { storeCall, type WriteHealth } from './storeCall.js';

interface Row extends IdempotencyRecord {
  readonly pending_on: string | null;
  readonly expires_at: number;
}

/**
 * `Idempotency-Key` records in SQLite, one row per owner and key; an expired row is replaced by the
 * next claim (and purged by the retention pass). A pending row names the process that answers it
 * (`instanceId`): the data directory is locked to one process, so a row pending on another one
 * was left by a process that died, and the next claim takes it.
 */
export class SqliteIdempotencyStore implements IdempotencyStore {
  readonly #claim: (owner: string, key: string, record: IdempotencyRecord, ttlMs: number, pending: boolean) => StandingRecord;
  readonly #settle: Database.Statement;
  readonly #release: Database.Statement;
  readonly #select: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly health: WriteHealth,
    private readonly instanceId: string,
  ) {
    const expire = db.prepare('DELETE FROM idempotency WHERE owner = ? AND key = ? AND (expires_at <= ? OR pending_on != ?)');
    const insert = db.prepare(
      'INSERT INTO idempotency (owner, key, fingerprint, answer, expires_at, pending_on) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (owner, key) DO NOTHING',
    );
    this.#select = db.prepare('SELECT fingerprint, answer, pending_on, expires_at FROM idempotency WHERE owner = ? AND key = ?');
    this.#settle = db.prepare('UPDATE idempotency SET pending_on = NULL WHERE owner = ? AND key = ? AND answer = ?');
    this.#release = db.prepare('DELETE FROM idempotency WHERE owner = ? AND key = ? AND answer = ?');
    this.#claim = db.transaction((owner: string, key: string, record: IdempotencyRecord, ttlMs: number, pending: boolean) => {
      const now = Date.now();
      expire.run(owner, key, now, instanceId);
      const first = insert.run(owner, key, record.fingerprint, record.answer, now + ttlMs, pending ? instanceId : null).changes === 1;
      const { fingerprint, answer, pending_on } = this.#select.get(owner, key) as Row;
      return { fingerprint, answer, first, pending: pending_on !== null };
    });
  }

  claim(owner: string, key: string, record: IdempotencyRecord, ttlMs: number, options: ClaimOptions = {}): Promise<StandingRecord> {
    return this.health.write('claim an idempotency key', () => this.#claim(owner, key, record, ttlMs, options.pending ?? false));
  }

  settle(owner: string, key: string, answer: string): Promise<void> {
    return this.health.write('settle an idempotency key', () => void this.#settle.run(owner, key, answer));
  }

  release(owner: string, key: string, answer: string): Promise<void> {
    return this.health.write('release an idempotency key', () => void this.#release.run(owner, key, answer));
  }

  stands(owner: string, key: string, answer: string): Promise<boolean> {
    return storeCall('read an idempotency key', () => {
      const row = this.#select.get(owner, key) as Row | undefined;
      return row?.answer === answer && row.expires_at > Date.now() && (row.pending_on === null || row.pending_on === this.instanceId);
    });
  }
}
