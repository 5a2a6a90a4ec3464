import type Database from 'better-sqlite3';
import type { ChatMessage } from '../agent/agent.js';
import { RequestError } from '../errors/RequestError.js';
import type { ResponseObject } from '../protocol/responses/responseObject.js';

export type Tombstone = 'evicted' | 'deleted';

/** A stored response, or the tombstone left where one was. */
export type StoredResponse =
  | { readonly kind: 'response'; readonly response: ResponseObject; readonly turn: readonly ChatMessage[] }
  | { readonly kind: 'tombstone'; readonly tombstone: Tombstone };

interface Row {
  readonly tombstone: Tombstone | null;
  readonly body: string | null;
  readonly turn: string | null;
  readonly previous_response_id: string | null;
}

/** A conversation longer than this many stored turns is refused rather than walked. */
const MAX_CHAIN = 10_000;

/** Why a response (or an ancestor of one) cannot be used, as a 404 that says what happened. */
export function missingResponse(id: string, tombstone: Tombstone | undefined, param: string | null, of?: string): RequestError {
  const subject =
    of === undefined || of === id ? `response '${id}'` : `response '${id}' (an ancestor of '${of}' in its previous_response_id chain)`;
  const message =
    tombstone === 'evicted'
      ? `${subject} was evicted from the store by the retention policy (RXGATE_RETENTION_MAX_ITEMS / RXGATE_RETENTION_MAX_AGE_DAYS); the conversation cannot be continued`
      : tombstone === 'deleted'
        ? `${subject} was deleted; the conversation cannot be continued`
        : `${subject} not found`;
  return new RequestError(
    404,
    message,
    'invalid_request_error',
    param,
    tombstone === undefined ? 'response_not_found' : `response_${tombstone}`,
  );
}

/** Stored responses, each with its turn (the input it was given and the answer), chained by `previous_response_id`. */
export class ResponseStore {
  readonly #upsert: Database.Statement;
  readonly #select: Database.Statement;
  readonly #bury: Database.Statement;

  constructor(db: Database.Database) {
    this.#upsert = db.prepare(
      `INSERT INTO responses (id, created_at, status, previous_response_id, body, turn) VALUES (@id, @created_at, @status, @previous_response_id, @body, @turn)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, body = excluded.body, turn = excluded.turn WHERE tombstone IS NULL`,
    );
    this.#select = db.prepare('SELECT tombstone, body, turn, previous_response_id FROM responses WHERE id = ?');
    this.#bury = db.prepare('UPDATE responses SET tombstone = ?, body = NULL, turn = NULL WHERE id = ? AND tombstone IS NULL');
  }

  save(response: ResponseObject, turn: readonly ChatMessage[]): void {
    this.#upsert.run({
      id: response.id,
      created_at: Date.now(),
      status: response.status,
      previous_response_id: response.previous_response_id,
      body: JSON.stringify(response),
      turn: JSON.stringify(turn),
    });
  }

  get(id: string): StoredResponse | undefined {
    const row = this.#select.get(id) as Row | undefined;
    if (!row) return undefined;
    if (row.tombstone) return { kind: 'tombstone', tombstone: row.tombstone };
    return { kind: 'response', response: JSON.parse(row.body!) as ResponseObject, turn: JSON.parse(row.turn!) as ChatMessage[] };
  }

  /** Leaves a tombstone; false when there was no stored response. */
  delete(id: string): boolean {
    return this.#bury.run('deleted', id).changes > 0;
  }

  /** The messages of the chain ending at `id`, oldest first; a missing or buried link is a 404 naming it. */
  conversation(id: string): ChatMessage[] {
    const turns: (readonly ChatMessage[])[] = [];
    for (let cursor: string | null = id; cursor !== null;) {
      if (turns.length >= MAX_CHAIN)
        throw new RequestError(
          400,
          `the conversation of '${id}' is longer than ${MAX_CHAIN} responses`,
          'invalid_request_error',
          'previous_response_id',
          'chain_too_long',
        );
      const row = this.#select.get(cursor) as Row | undefined;
      if (!row || row.tombstone) throw missingResponse(cursor, row?.tombstone ?? undefined, 'previous_response_id', id);
      turns.push(JSON.parse(row.turn!) as ChatMessage[]);
      cursor = row.previous_response_id;
    }
    return turns.reverse().flat();
  }
}
