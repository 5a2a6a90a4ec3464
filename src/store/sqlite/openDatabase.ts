import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export const DATABASE_FILE = 'rxgate.db';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS responses (
  id TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL,
  status TEXT NOT NULL,
  previous_response_id TEXT,
  -- 'evicted' or 'deleted' once only the id is kept, so that a chain through it can say why it broke
  tombstone TEXT,
  body TEXT,
  turn TEXT
);
CREATE INDEX IF NOT EXISTS responses_by_age ON responses (tombstone, created_at);
CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL,
  status TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_by_age ON runs (created_at);
CREATE TABLE IF NOT EXISTS events (
  stream_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (stream_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS jobs (
  id TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL,
  -- the last slot an instance claimed (Unix ms): a slot fires only if later
  last_slot INTEGER,
  body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS job_fires (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  job_id TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS job_fires_by_job ON job_fires (job_id, seq);
CREATE TABLE IF NOT EXISTS idempotency (
  owner TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  answer TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (owner, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS idempotency_by_expiry ON idempotency (expires_at);
-- when an event log that no run or response owns (an idempotent chat completion's) goes, in Unix ms
CREATE TABLE IF NOT EXISTS event_expiry (
  stream_id TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS event_expiry_by_time ON event_expiry (expires_at);
-- One row for every upstream attempt that spent something: the usage ledger
CREATE TABLE IF NOT EXISTS usage_calls (
  at INTEGER NOT NULL,
  key TEXT NOT NULL,
  model TEXT NOT NULL,
  upstream TEXT NOT NULL,
  upstream_model TEXT NOT NULL,
  input_tokens INTEGER NOT NULL,
  cached_input_tokens INTEGER NOT NULL,
  cache_write_tokens INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  cost_usd REAL NOT NULL,
  estimated INTEGER NOT NULL,
  reference TEXT
);
CREATE INDEX IF NOT EXISTS usage_calls_by_time ON usage_calls (at);
CREATE INDEX IF NOT EXISTS usage_calls_by_key ON usage_calls (key, at);
-- Each key's settled spend against its budget, as whole picodollars a bucket of its window's series
CREATE TABLE IF NOT EXISTS budget_spent (
  key TEXT NOT NULL,
  series TEXT NOT NULL,
  bucket INTEGER NOT NULL,
  pico INTEGER NOT NULL,
  PRIMARY KEY (key, series, bucket)
) WITHOUT ROWID;
-- The worst cases held by calls in flight, until they settle or their lease ends
CREATE TABLE IF NOT EXISTS budget_holds (
  id TEXT PRIMARY KEY,
  key TEXT NOT NULL,
  pico INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS budget_holds_by_key ON budget_holds (key, expires_at);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/** Columns added after the first release: `ALTER TABLE ... ADD COLUMN` for a database that predates them. */
const ADDED_COLUMNS: readonly { table: string; column: string; type: string }[] = [
  // The bytes of the stored turns of the chain ending at the row, so that its size is known from one row.
  { table: 'responses', column: 'conversation_bytes', type: 'INTEGER' },
  // The principal id that made the row; NULL in a row stored before keys existed, which is `default`'s.
  { table: 'responses', column: 'owner', type: 'TEXT' },
  { table: 'runs', column: 'owner', type: 'TEXT' },
  // The process still answering a record's first request (a chat completion); NULL once it has answered.
  { table: 'idempotency', column: 'pending_on', type: 'TEXT' },
];

function addMissingColumns(db: Database.Database): void {
  for (const { table, column, type } of ADDED_COLUMNS) {
    const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[];
    if (!columns.includes(column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }
}

/**
 * Opens (creating on first use) `rxgate.db` in `dataDir`, or an in-memory database for
 * `':memory:'`, in WAL mode with the schema in place. Safe to run on every start.
 */
export function openDatabase(dataDir: string): Database.Database {
  if (dataDir !== ':memory:') mkdirSync(dataDir, { recursive: true });
  const db = new Database(dataDir === ':memory:' ? ':memory:' : join(dataDir, DATABASE_FILE));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
  addMissingColumns(db);
  return db;
}
