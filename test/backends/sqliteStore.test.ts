import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/errors/StoreError.js';
import { LOCK_FILE } from '../../src/store/sqlite/lockDataDir.js';
import { enforceRetention } from '../../src/store/sqlite/enforceRetention.js';
import { DATABASE_FILE } from '../../src/store/sqlite/openDatabase.js';
import { SqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import { describeStoreContract } from '../support/storeContract.js';

describeStoreContract('SqliteStore', async (retention) => new SqliteStore({ dataDir: ':memory:', retention, flushMs: 1 }));

const dirs: string[] = [];
const newDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'rxgate-store-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const event = (seq: number) => ({ seq, type: 'message.delta', data: `{"seq":${seq}}` });

describe('the SQLite store', () => {
  it('creates its database in WAL mode on first start, and opens it again idempotently', async () => {
    const dataDir = join(newDataDir(), 'nested');
    await new SqliteStore({ dataDir }).close();
    const store = new SqliteStore({ dataDir });
    await store.responses.save({ id: 'resp_1', status: 'completed', previous_response_id: null }, []);
    await store.close();

    const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT id FROM responses').pluck().all()).toEqual(['resp_1']);
    db.close();
  });

  it('writes appended events in one batch per flush, and shows none of them before the batch is written', async () => {
    const dataDir = newDataDir();
    const store = new SqliteStore({ dataDir, flushMs: 60_000 });
    const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
    const written = () => db.prepare('SELECT COUNT(*) FROM events').pluck().get();
    const first = store.events.append('run_1', [event(0)]);
    const second = store.events.append('run_1', [event(1)]);

    expect(first).toBe(second);
    expect(written()).toBe(0);
    expect(await store.events.read('run_1', -1, 10)).toEqual([]);
    await store.events.flush();
    await first;
    expect(written()).toBe(2);
    expect(await store.events.read('run_1', -1, 10)).toEqual([event(0), event(1)]);
    db.close();
    await store.close();
  });

  it('turns a failed write into a StoreError, and reports it as not writable until a write goes through', async () => {
    const store = new SqliteStore({ dataDir: ':memory:', flushMs: 1 });
    await store.events.append('run_1', [event(0)]);
    const failed = await store.events.append('run_1', [event(0)]).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(StoreError);
    expect((failed as Error).message).toMatch(/^rxgate: the store failed to write events: UNIQUE constraint failed/);
    expect(await store.checkWritable()).toBe((failed as Error).message);
    await store.events.append('run_1', [event(1)]);
    expect(await store.checkWritable()).toBeUndefined();
    await store.close();
  });

  it('takes the Idempotency-Key of a record a process that died left pending', async () => {
    const dataDir = newDataDir();
    const dead = new SqliteStore({ dataDir });
    const record = (answer: string) => ({ fingerprint: 'f', answer });
    await dead.idempotency.claim('team', 'pending', record('a'), 60_000, { pending: true });
    await dead.idempotency.claim('team', 'settled', record('a'), 60_000);
    await dead.close();
    const next = new SqliteStore({ dataDir });
    expect(await next.idempotency.claim('team', 'pending', record('b'), 60_000, { pending: true })).toMatchObject({
      answer: 'b',
      first: true,
    });
    expect(await next.idempotency.claim('team', 'settled', record('b'), 60_000)).toMatchObject({ answer: 'a', first: false });
    await next.close();
  });

  it('purges expired Idempotency-Key records and the event logs whose time is up in the retention pass', async () => {
    const dataDir = newDataDir();
    const store = new SqliteStore({ dataDir });
    const record = (answer: string) => ({ fingerprint: 'f', answer });
    await store.idempotency.claim('team', 'brief', record('chatcmpl-brief'), 1_000);
    await store.idempotency.claim('team', 'lasting', record('chatcmpl-lasting'), 3_600_000);
    for (const [id, keepMs] of [
      ['chatcmpl-brief', 1_000],
      ['chatcmpl-lasting', 3_600_000],
    ] as const) {
      await store.events.append(id, [event(0)]);
      await store.events.expire(id, keepMs);
    }
    await store.close();

    // A pass a minute later, on the file itself: the time passes without the test waiting for it.
    const db = new Database(join(dataDir, DATABASE_FILE));
    enforceRetention(db, { maxItems: 100, maxAgeMs: 86_400_000, usageMaxAgeMs: 86_400_000 }, Date.now() + 60_000);
    expect(db.prepare('SELECT key FROM idempotency').pluck().all()).toEqual(['lasting']);
    expect(db.prepare('SELECT DISTINCT stream_id FROM events').pluck().all()).toEqual(['chatcmpl-lasting']);
    expect(db.prepare('SELECT stream_id FROM event_expiry').pluck().all()).toEqual(['chatcmpl-lasting']);
    db.close();
  });

  it('locks its data directory: a second store there is refused, naming the directory and the holder', async () => {
    const dataDir = newDataDir();
    const first = new SqliteStore({ dataDir });
    expect(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).toBe(String(process.pid));
    // Another live process holds it: this one's parent, say.
    writeFileSync(join(dataDir, LOCK_FILE), String(process.ppid));
    expect(() => new SqliteStore({ dataDir })).toThrow(
      `the data directory ${dataDir} is in use by another rxgate process (pid ${process.ppid}`,
    );
    writeFileSync(join(dataDir, LOCK_FILE), String(process.pid));
    await first.close();
    expect(() => readFileSync(join(dataDir, LOCK_FILE))).toThrow(/ENOENT/);
  });

  it('takes over the lock of a process that died without releasing it', async () => {
    const dataDir = newDataDir();
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(dataDir, LOCK_FILE), String(dead));
    const store = new SqliteStore({ dataDir });
    expect(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).toBe(String(process.pid));
    await store.close();
  });
});
