import type Database from 'better-sqlite3';
import { itemBytes, type ConversationItem, type ConversationRecord, type ConversationStore } from '../ConversationStore.js';
import type { RetentionPolicy } from '../retentionPolicy.js';
import { storeCall, type WriteHealth } from './storeCall.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS conversations (
  id TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL,
  -- when an item was last added or removed (ms), which retention reads
  updated_at INTEGER NOT NULL,
  owner TEXT NOT NULL,
  metadata TEXT NOT NULL,
  bytes INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS conversations_by_use ON conversations (updated_at);
CREATE TABLE IF NOT EXISTS conversation_items (
  conversation_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  id TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (conversation_id, seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS conversation_items_by_id ON conversation_items (conversation_id, id);
`;

interface Row {
  readonly id: string;
  readonly created_at: number;
  readonly owner: string;
  readonly metadata: string;
  readonly bytes: number;
}

const toRecord = (row: Row): ConversationRecord => ({
  id: row.id,
  created_at: row.created_at,
  owner: row.owner,
  metadata: JSON.parse(row.metadata) as Record<string, string>,
  bytes: row.bytes,
});

/**
 * Conversations in SQLite: a row each, their items in a table of their own in order. Locks are
 * kept in this process: the data directory is locked to it, so a lock dies with the process that
 * held it and a restart starts with none.
 */
export class SqliteConversationStore implements ConversationStore {
  readonly #locks = new Map<string, { readonly holder: string; readonly until: number }>();
  readonly #db: Database.Database;

  constructor(
    db: Database.Database,
    private readonly health: WriteHealth,
    readonly leaseMs = 10_000,
  ) {
    db.exec(SCHEMA);
    this.#db = db;
  }

  create(conversation: Omit<ConversationRecord, 'bytes'>, items: readonly ConversationItem[]): Promise<void> {
    return this.health.write('create a conversation', () =>
      this.#db.transaction(() => {
        const { id, created_at, owner, metadata } = conversation;
        this.#db
          .prepare('INSERT INTO conversations (id, created_at, updated_at, owner, metadata) VALUES (?, ?, ?, ?, ?)')
          .run(id, created_at, Date.now(), owner, JSON.stringify(metadata));
        this.#append(id, items);
      })(),
    );
  }

  get(id: string): Promise<ConversationRecord | undefined> {
    return storeCall('read a conversation', () => this.#get(id));
  }

  #get(id: string): ConversationRecord | undefined {
    const row = this.#db.prepare('SELECT id, created_at, owner, metadata, bytes FROM conversations WHERE id = ?').get(id) as
      Row | undefined;
    return row && toRecord(row);
  }

  setMetadata(id: string, metadata: Readonly<Record<string, string>>): Promise<ConversationRecord | undefined> {
    return this.health.write('update a conversation', () => {
      this.#db.prepare('UPDATE conversations SET metadata = ? WHERE id = ?').run(JSON.stringify(metadata), id);
      return this.#get(id);
    });
  }

  delete(id: string): Promise<boolean> {
    return this.health.write('delete a conversation', () => this.#db.transaction(() => this.#delete(id))());
  }

  #delete(id: string): boolean {
    this.#db.prepare('DELETE FROM conversation_items WHERE conversation_id = ?').run(id);
    return this.#db.prepare('DELETE FROM conversations WHERE id = ?').run(id).changes > 0;
  }

  items(id: string): Promise<ConversationItem[] | undefined> {
    return storeCall('read conversation items', () => {
      if (!this.#get(id)) return undefined;
      return (
        this.#db.prepare('SELECT body FROM conversation_items WHERE conversation_id = ? ORDER BY seq').pluck().all(id) as string[]
      ).map((body) => JSON.parse(body) as ConversationItem);
    });
  }

  item(id: string, itemId: string): Promise<ConversationItem | undefined> {
    return storeCall('read a conversation item', () => {
      const body = this.#db.prepare('SELECT body FROM conversation_items WHERE conversation_id = ? AND id = ?').pluck().get(id, itemId) as
        string | undefined;
      return body === undefined ? undefined : (JSON.parse(body) as ConversationItem);
    });
  }

  deleteItem(id: string, itemId: string): Promise<boolean> {
    return this.health.write('delete a conversation item', () =>
      this.#db.transaction(() => {
        const bytes = this.#db
          .prepare('DELETE FROM conversation_items WHERE conversation_id = ? AND id = ? RETURNING bytes')
          .pluck()
          .get(id, itemId) as number | undefined;
        if (bytes === undefined) return false;
        this.#db.prepare('UPDATE conversations SET bytes = bytes - ?, updated_at = ? WHERE id = ?').run(bytes, Date.now(), id);
        return true;
      })(),
    );
  }

  append(id: string, items: readonly ConversationItem[], holder?: string): Promise<boolean> {
    return this.health.write('append to a conversation', () => {
      if (holder !== undefined && !this.#holds(id, holder)) return false;
      return this.#db.transaction(() => this.#get(id) !== undefined && (this.#append(id, items), true))();
    });
  }

  #append(id: string, items: readonly ConversationItem[]): void {
    const next = this.#db
      .prepare('SELECT coalesce(max(seq), -1) + 1 FROM conversation_items WHERE conversation_id = ?')
      .pluck()
      .get(id) as number;
    const insert = this.#db.prepare('INSERT INTO conversation_items (conversation_id, seq, id, bytes, body) VALUES (?, ?, ?, ?, ?)');
    let bytes = 0;
    for (const [index, item] of items.entries()) {
      const size = itemBytes(item);
      bytes += size;
      insert.run(id, next + index, item.id, size, JSON.stringify(item));
    }
    this.#db.prepare('UPDATE conversations SET bytes = bytes + ?, updated_at = ? WHERE id = ?').run(bytes, Date.now(), id);
  }

  #holds(id: string, holder: string): boolean {
    const lock = this.#locks.get(id);
    return lock !== undefined && lock.holder === holder && lock.until > Date.now();
  }

  lock(id: string, holder: string): Promise<boolean> {
    const now = Date.now();
    const lock = this.#locks.get(id);
    if (lock && lock.holder !== holder && lock.until > now) return Promise.resolve(false);
    this.#locks.set(id, { holder, until: now + this.leaseMs });
    return Promise.resolve(true);
  }

  unlock(id: string, holder: string): Promise<void> {
    if (this.#locks.get(id)?.holder === holder) this.#locks.delete(id);
    return Promise.resolve();
  }

  /** Deletes the conversations retention no longer keeps (with their items); returns how many. Runs in the caller's write. */
  evict({ maxItems, maxAgeMs }: RetentionPolicy, now = Date.now()): number {
    const ids = this.#db
      .prepare(
        `SELECT id FROM conversations WHERE updated_at < @cutoff OR id NOT IN
           (SELECT id FROM conversations ORDER BY updated_at DESC LIMIT @maxItems)`,
      )
      .pluck()
      .all({ cutoff: now - maxAgeMs, maxItems }) as string[];
    return this.#db.transaction(() => ids.filter((id) => this.#delete(id)).length)();
  }
}
