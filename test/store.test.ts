import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResponseObject } from '../src/protocol/responses/responseObject.js';
import { DATABASE_FILE } from '../src/store/openDatabase.js';
import { Store } from '../src/store/Store.js';

let dataDir: string | undefined;
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

const response = (id: string, previous: string | null = null) =>
  ({ id, created_at: 1, status: 'completed', previous_response_id: previous }) as unknown as ResponseObject;
const event = (seq: number) => ({ seq, type: 'message.delta', data: `{"seq":${seq}}` });

describe('the SQLite store', () => {
  it('creates its database in WAL mode on first start, and opens it again idempotently', () => {
    dataDir = join(mkdtempSync(join(tmpdir(), 'rxgate-store-')), 'nested');
    new Store({ dataDir }).close();
    const store = new Store({ dataDir });
    store.responses.save(response('resp_1'), []);
    store.close();

    const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT id FROM responses').pluck().all()).toEqual(['resp_1']);
    db.close();
  });

  it('buffers event-log writes off the hot path, and reads written and buffered events alike', () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rxgate-store-'));
    const store = new Store({ dataDir, flushMs: 60_000 });
    const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
    const written = () => db.prepare('SELECT COUNT(*) FROM events').pluck().get();
    store.events.append('run_1', event(0));
    store.events.append('run_1', event(1));

    expect(written()).toBe(0);
    expect(store.events.read('run_1', -1)).toEqual([event(0), event(1)]);
    store.events.flush();
    store.events.append('run_1', event(2));
    expect(written()).toBe(2);
    expect(store.events.read('run_1', 0)).toEqual([event(1), event(2)]);
    db.close();
    store.close();
  });

  it('evicts the oldest responses to tombstones, removes old finished runs, and caps tombstones', () => {
    const store = new Store({ dataDir: ':memory:', retention: { maxItems: 1, maxAgeMs: 60_000 } });
    for (const id of ['resp_1', 'resp_2', 'resp_3']) store.responses.save(response(id), []);
    store.enforceRetention();
    for (const id of ['resp_4', 'resp_5', 'resp_6', 'resp_7', 'resp_8', 'resp_9', 'resp_10', 'resp_11', 'resp_12', 'resp_13'])
      store.responses.save(response(id), []);
    store.enforceRetention();

    expect(store.responses.get('resp_13')).toMatchObject({ kind: 'response' });
    expect(store.responses.get('resp_12')).toEqual({ kind: 'tombstone', tombstone: 'evicted' });
    expect(store.responses.get('resp_3')).toEqual({ kind: 'tombstone', tombstone: 'evicted' });
    expect(store.responses.get('resp_1')).toBeUndefined();
    store.close();
  });
});
