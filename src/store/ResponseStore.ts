import type Database from 'better-sqlite3';
import type { ChatMessage } from '../agent/agent.js';
import { ChainTooLongError } from '../errors/ChainTooLongError.js';
import { ConversationTooLargeError } from '../errors/ConversationTooLargeError.js';
import { UnavailableResponseError, type Tombstone } from '../errors/UnavailableResponseError.js';

/** What the store reads of a response; the rest of its JSON is kept as it is. */
export interface ResponseRecord {
  readonly id: string;
  readonly status: string;
  readonly previous_response_id: string | null;
}

/** A stored response, or the tombstone left where one was. */
export type StoredResponse<R extends ResponseRecord = ResponseRecord> =
  | { readonly kind: 'response'; readonly response: R; readonly turn: readonly ChatMessage[] }
  | { readonly kind: 'tombstone'; readonly tombstone: Tombstone };

interface Row {
  readonly tombstone: Tombstone | null;
  readonly body: string | null;
  readonly turn: string | null;
  readonly previous_response_id: string | null;
}

type Link = Omit<Row, 'body'>;

/** A conversation longer than this many stored turns is refused rather than walked. */
const MAX_CHAIN = 10_000;

/** Stored responses, each with its turn (the input it was given and the answer), chained by `previous_response_id`. */
export class ResponseStore {
  readonly #upsert: Database.Statement;
  readonly #select: Database.Statement;
  readonly #bury: Database.Statement;
  readonly #replace: Database.Statement;
  readonly #unfinished: Database.Statement;
  readonly #link: Database.Statement;
  readonly #storedBytes: Database.Statement;
  readonly #walkedBytes: Database.Statement;

  constructor(db: Database.Database) {
    this.#upsert = db.prepare(
      `INSERT INTO responses (id, created_at, status, previous_response_id, body, turn, conversation_bytes)
       VALUES (@id, @created_at, @status, @previous_response_id, @body, @turn, @conversation_bytes)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, body = excluded.body, turn = excluded.turn,
         conversation_bytes = excluded.conversation_bytes WHERE tombstone IS NULL`,
    );
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

  save(response: ResponseRecord, turn: readonly ChatMessage[]): void {
    const turnJson = JSON.stringify(turn);
    const previous = response.previous_response_id;
    this.#upsert.run({
      id: response.id,
      created_at: Date.now(),
      status: response.status,
      previous_response_id: previous,
      body: JSON.stringify(response),
      turn: turnJson,
      conversation_bytes: Buffer.byteLength(turnJson) + (previous === null ? 0 : (this.conversationBytes(previous) ?? 0)),
    });
  }

  /**
   * The bytes of the stored turns of the chain ending at `id` (what `conversation` would parse),
   * read from its row, none parsed; undefined when there is no such response.
   */
  conversationBytes(id: string): number | undefined {
    const row = this.#storedBytes.get(id) as { bytes: number | null } | undefined;
    if (!row) return undefined;
    return row.bytes ?? (this.#walkedBytes.get({ id, maxLinks: MAX_CHAIN }) as number);
  }

  /** `R` is the shape the caller stored. */
  get<R extends ResponseRecord>(id: string): StoredResponse<R> | undefined {
    const row = this.#select.get(id) as Row | undefined;
    if (!row) return undefined;
    if (row.tombstone) return { kind: 'tombstone', tombstone: row.tombstone };
    return { kind: 'response', response: JSON.parse(row.body!) as R, turn: JSON.parse(row.turn!) as ChatMessage[] };
  }

  /** Replaces the response object and keeps its turn. */
  replace(response: ResponseRecord): void {
    this.#replace.run({ id: response.id, status: response.status, body: JSON.stringify(response) });
  }

  /** The responses still queued or in progress: after a restart, what the previous process left in flight. */
  unfinished<R extends ResponseRecord>(): R[] {
    return (this.#unfinished.all() as string[]).map((body) => JSON.parse(body) as R);
  }

  /** Leaves a tombstone; false when there was no stored response. */
  delete(id: string): boolean {
    return this.#bury.run('deleted', id).changes > 0;
  }

  /**
   * The messages of the chain ending at `id`, oldest first; a missing or buried link is a 404
   * naming it. A chain over `maxBytes` (see `conversationBytes`) is refused before any turn is read.
   */
  conversation(id: string, maxBytes = Number.POSITIVE_INFINITY): ChatMessage[] {
    const bytes = this.conversationBytes(id) ?? 0;
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
