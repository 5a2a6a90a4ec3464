import type Database from 'better-sqlite3';
import type { ChatMessage } from '../../agent/agent.js';
import { ChainTooLongError } from '../../errors/ChainTooLongError.js';
import { ConversationTooLargeError } from '../../errors/ConversationTooLargeError.js';
import { UnavailableResponseError, type Tombstone } from '../../errors/UnavailableResponseError.js';
import { DEFAULT_OWNER } from '../../principal.js';
import type { ResponseRecord, ResponseStore, StoredResponse } from '../ResponseStore.js';
import { storeCall, type WriteHealth } from './storeCall.js';

interface Row {
  readonly tombstone: Tombstone | null;
  readonly body: string | null;
  readonly turn: string | null;
  readonly previous_response_id: string | null;
}

type Link = Omit<Row, 'body'>;

/** A conversation longer than this many stored turns is refused rather than walked. */
const MAX_CHAIN = 10_000;

/** Stored responses in SQLite; a response's row also holds its turn and the bytes of its chain's turns. */
export class SqliteResponseStore implements ResponseStore {
  readonly #upsert: Database.Statement;
  readonly #select: Database.Statement;
  readonly #bury: Database.Statement;
  readonly #replace: Database.Statement;
  readonly #unfinished: Database.Statement;
  readonly #link: Database.Statement;
  readonly #storedBytes: Database.Statement;
  readonly #walkedBytes: Database.Statement;
  readonly #owner: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly health: WriteHealth,
  ) {
    this.#upsert = db.prepare(
      `INSERT INTO responses (id, created_at, status, previous_response_id, body, turn, conversation_bytes, owner)
       VALUES (@id, @created_at, @status, @previous_response_id, @body, @turn, @conversation_bytes, @owner)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, body = excluded.body, turn = excluded.turn,
         conversation_bytes = excluded.conversation_bytes, owner = coalesce(responses.owner, excluded.owner) WHERE tombstone IS NULL`,
    );
    this.#owner = db.prepare('SELECT coalesce(owner, ?) FROM responses WHERE id = ?').pluck();
    this.#select = db.prepare('SELECT tombstone, body, turn, previous_response_id FROM responses WHERE id = ?');
    this.#bury = db.prepare('UPDATE responses SET tombstone = ?, body = NULL, turn = NULL WHERE id = ? AND tombstone IS NULL');
    this.#replace = db.prepare('UPDATE responses SET status = @status, body = @body WHERE id = @id AND tombstone IS NULL');
    this.#unfinished = db.prepare("SELECT body FROM responses WHERE tombstone IS NULL AND status IN ('queued', 'in_progress')").pluck();
    this.#link = db.prepare('SELECT tombstone, turn, previous_response_id FROM responses WHERE id = ?');
    this.#storedBytes = db.prepare('SELECT conversation_bytes AS bytes FROM responses WHERE id = ?');
    // A row stored before `conversation_bytes` existed: its chain's turns are measured where they lie, none read.
    this.#walkedBytes = db
      .prepare(
        `WITH RECURSIVE chain (previous, bytes, links) AS (
           SELECT previous_response_id, octet_length(turn), 1 FROM responses WHERE id = @id
           UNION ALL
           SELECT r.previous_response_id, octet_length(r.turn), chain.links + 1 FROM responses r JOIN chain ON r.id = chain.previous
           WHERE chain.links < @maxLinks
         )
         SELECT coalesce(sum(bytes), 0) FROM chain`,
      )
      .pluck();
  }

  save(response: ResponseRecord, turn: readonly ChatMessage[], owner?: string): Promise<void> {
    return this.health.write('save a response', () => this.#save(response, turn, owner));
  }

  owner(id: string): Promise<string | undefined> {
    return storeCall('read a response', () => this.#owner.get(DEFAULT_OWNER, id) as string | undefined);
  }

  #save(response: ResponseRecord, turn: readonly ChatMessage[], owner: string | undefined): void {
    const turnJson = JSON.stringify(turn);
    const previous = response.previous_response_id;
    this.#upsert.run({
      id: response.id,
      created_at: Date.now(),
      status: response.status,
      previous_response_id: previous,
      body: JSON.stringify(response),
      turn: turnJson,
      conversation_bytes: Buffer.byteLength(turnJson) + (previous === null ? 0 : (this.#conversationBytes(previous) ?? 0)),
      owner: owner ?? null,
    });
  }

  conversationBytes(id: string): Promise<number | undefined> {
    return storeCall('read a conversation size', () => this.#conversationBytes(id));
  }

  #conversationBytes(id: string): number | undefined {
    const row = this.#storedBytes.get(id) as { bytes: number | null } | undefined;
    if (!row) return undefined;
    return row.bytes ?? (this.#walkedBytes.get({ id, maxLinks: MAX_CHAIN }) as number);
  }

  get<R extends ResponseRecord>(id: string): Promise<StoredResponse<R> | undefined> {
    return storeCall('read a response', () => {
      const row = this.#select.get(id) as Row | undefined;
      if (!row) return undefined;
      if (row.tombstone) return { kind: 'tombstone', tombstone: row.tombstone };
      return { kind: 'response', response: JSON.parse(row.body!) as R, turn: JSON.parse(row.turn!) as ChatMessage[] };
    });
  }

  replace(response: ResponseRecord): Promise<void> {
    return this.health.write('save a response', () => {
      this.#replace.run({ id: response.id, status: response.status, body: JSON.stringify(response) });
    });
  }

  /** In one process with the data directory locked, every unfinished response at start-up is a dead process's. */
  unfinished<R extends ResponseRecord>(): Promise<R[]> {
    return storeCall('read unfinished responses', () => (this.#unfinished.all() as string[]).map((body) => JSON.parse(body) as R));
  }

  delete(id: string): Promise<boolean> {
    return this.health.write('delete a response', () => this.#bury.run('deleted', id).changes > 0);
  }

  conversation(id: string, maxBytes = Number.POSITIVE_INFINITY): Promise<ChatMessage[]> {
    return storeCall('read a conversation', () => this.#conversation(id, maxBytes));
  }

  #conversation(id: string, maxBytes: number): ChatMessage[] {
    const bytes = this.#conversationBytes(id) ?? 0;
    if (bytes > maxBytes) throw new ConversationTooLargeError(id, bytes, maxBytes);
    const turns: (readonly ChatMessage[])[] = [];
    for (let cursor: string | null = id; cursor !== null;) {
      if (turns.length >= MAX_CHAIN) throw new ChainTooLongError(id, MAX_CHAIN);
      const row = this.#link.get(cursor) as Link | undefined;
      if (!row || row.tombstone) throw new UnavailableResponseError(cursor, row?.tombstone ?? undefined, id);
      turns.push(JSON.parse(row.turn!) as ChatMessage[]);
      cursor = row.previous_response_id;
    }
    return turns.reverse().flat();
  }
}
