import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../../src/agent/agent.js';
import { ConversationTooLargeError } from '../../../src/errors/ConversationTooLargeError.js';
import type { ResponseObject } from '../../../src/openai/responseObject.js';
import { DATABASE_FILE } from '../../../src/store/sqlite/openDatabase.js';
import { SqliteStore } from '../../../src/store/sqlite/SqliteStore.js';
import type { Store } from '../../../src/store/Store.js';
import { finish, say, ScriptedAgent } from '../../support/scriptedAgent.js';
import { startApp, type TestApp } from '../../support/startApp.js';

// A `previous_response_id` conversation is measured from one row before any of it is read, so
// that a few small follow-ups to a huge chain cannot make every request load and parse all of it.

let dataDir: string | undefined;
let app: TestApp | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await app?.close();
  app = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

const response = (id: string, previous: string | null = null) =>
  ({ id, created_at: 1, status: 'completed', previous_response_id: previous }) as unknown as ResponseObject;
const turn = (text: string): ChatMessage[] => [
  { role: 'user', content: text },
  { role: 'assistant', content: 'ok' },
];
const bytesOf = (messages: readonly ChatMessage[]) => Buffer.byteLength(JSON.stringify(messages));

/** resp_1 <- resp_2 <- resp_3, each turn about 1 KB (multi-byte characters counted as bytes). */
async function saveChain(store: Store): Promise<ChatMessage[][]> {
  const turns = [turn('a'.repeat(1000)), turn('é'.repeat(500)), turn('c'.repeat(1000))];
  for (const [i, messages] of turns.entries())
    await store.responses.save(response(`resp_${i + 1}`, i === 0 ? null : `resp_${i}`), messages);
  return turns;
}

describe('the conversation size', () => {
  it('is kept on each row as the bytes of the chain, so the cap is checked before any turn is parsed', async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    const turns = await saveChain(store);
    const total = turns.reduce((sum, messages) => sum + bytesOf(messages), 0);
    expect(await store.responses.conversationBytes('resp_3')).toBe(total);
    expect(await store.responses.conversationBytes('resp_1')).toBe(bytesOf(turns[0]!));
    expect(await store.responses.conversationBytes('resp_missing')).toBeUndefined();

    const parse = vi.spyOn(JSON, 'parse');
    await expect(store.responses.conversation('resp_3', total - 1)).rejects.toThrow(ConversationTooLargeError);
    expect(parse).not.toHaveBeenCalled();
    await expect(store.responses.conversation('resp_3', total - 1)).rejects.toThrow(`is ${total} bytes, over the limit of ${total - 1}`);

    expect(await store.responses.conversation('resp_3', total)).toEqual(turns.flat());
    await store.close();
  });

  it('follows a turn that grows (saved in progress, then complete) and a new turn on a saved chain', async () => {
    const store = new SqliteStore({ dataDir: ':memory:' });
    await store.responses.save(response('resp_1'), turn('a'));
    await store.responses.save(response('resp_2', 'resp_1'), turn('b'));
    await store.responses.save(response('resp_2', 'resp_1'), turn('b'.repeat(100)));
    expect(await store.responses.conversationBytes('resp_2')).toBe(bytesOf(turn('a')) + bytesOf(turn('b'.repeat(100))));
    await store.close();
  });

  it('is measured in SQL, still without parsing, for rows of a database from before the column', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rxgate-store-'));
    mkdirSync(dataDir, { recursive: true });
    const legacy = new Database(join(dataDir, DATABASE_FILE));
    legacy.exec(`CREATE TABLE responses (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, status TEXT NOT NULL,
      previous_response_id TEXT, tombstone TEXT, body TEXT, turn TEXT)`);
    const insert = legacy.prepare('INSERT INTO responses VALUES (?, 1, ?, ?, NULL, ?, ?)');
    const turns = [turn('a'.repeat(1000)), turn('é'.repeat(500))];
    insert.run('resp_1', 'completed', null, JSON.stringify(response('resp_1')), JSON.stringify(turns[0]));
    insert.run('resp_2', 'completed', 'resp_1', JSON.stringify(response('resp_2', 'resp_1')), JSON.stringify(turns[1]));
    legacy.close();

    const store = new SqliteStore({ dataDir });
    const total = bytesOf(turns[0]!) + bytesOf(turns[1]!);
    expect(await store.responses.conversationBytes('resp_2')).toBe(total);
    const parse = vi.spyOn(JSON, 'parse');
    await expect(store.responses.conversation('resp_2', total - 1)).rejects.toThrow(ConversationTooLargeError);
    expect(parse).not.toHaveBeenCalled();
    vi.restoreAllMocks();

    // A turn saved on a legacy chain carries the whole chain's size from then on.
    const next = turn('d');
    await store.responses.save(response('resp_3', 'resp_2'), next);
    expect(await store.responses.conversationBytes('resp_3')).toBe(total + bytesOf(next));
    await store.close();
  });

  it('a follow-up to a conversation over RXGATE_MAX_CONVERSATION_BYTES is a 400 naming previous_response_id and the size', async () => {
    const agent = new ScriptedAgent([say('ok'), finish()]);
    app = await startApp(agent, { maxConversationBytes: 3_000 });
    const post = async (body: Record<string, unknown>) => {
      const answer = await fetch(`${app!.url}/v1/responses`, { method: 'POST', body: JSON.stringify(body) });
      return { status: answer.status, body: (await answer.json()) as { id: string; error?: Record<string, unknown> } };
    };
    const first = await post({ input: 'x'.repeat(1_600) });
    const second = await post({ input: 'y'.repeat(1_600), previous_response_id: first.body.id });
    expect(second.status).toBe(200);
    const size = (await app.store.responses.conversationBytes(second.body.id))!;
    expect(size).toBeGreaterThan(3_000);

    const refused = await post({ input: 'hi', previous_response_id: second.body.id });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      message: expect.stringContaining(`is ${size} bytes, over the limit of 3000`),
      type: 'invalid_request_error',
      param: 'previous_response_id',
      code: 'conversation_too_large',
    });
    expect(agent.runs).toHaveLength(2);
    expect((await post({ input: 'hi', previous_response_id: first.body.id })).status).toBe(200);
  });
});
