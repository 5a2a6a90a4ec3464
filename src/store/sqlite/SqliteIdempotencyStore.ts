import type Database from 'better-sqlite3';
import type { IdempotencyRecord, IdempotencyStore } from '../IdempotencyStore.js';
import type { WriteHealth } from './storeCall.js';

/** `Idempotency-Key` records in SQLite, one row per owner and key; an expired row is replaced by the next claim. */
export class SqliteIdempotencyStore implements IdempotencyStore {
  readonly #claim: (owner: string, key: string, record: IdempotencyRecord, ttlMs: number) => IdempotencyRecord & { first: boolean };

  constructor(
    db: Database.Database,
    private readonly health: WriteHealth,
  ) {
    const expire = db.prepare('DELETE FROM idempotency WHERE owner = ? AND key = ? AND expires_at <= ?');
    const insert = db.prepare(
      'INSERT INTO idempotency (owner, key, fingerprint, answer, expires_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (owner, key) DO NOTHING',
    );
    const select = db.prepare('SELECT fingerprint, answer FROM idempotency WHERE owner = ? AND key = ?');
    this.#claim = db.transaction((owner: string, key: string, record: IdempotencyRecord, ttlMs: number) => {
      const now = Date.now();
      expire.run(owner, key, now);
      const first = insert.run(owner, key, record.fingerprint, record.answer, now + ttlMs).changes === 1;
      return { ...(select.get(owner, key) as IdempotencyRecord), first };
    });
  }

  claim(owner: string, key: string, record: IdempotencyRecord, ttlMs: number): Promise<IdempotencyRecord & { readonly first: boolean }> {
    return this.health.write('claim an idempotency key', () => this.#claim(owner, key, record, ttlMs));
  }
}
