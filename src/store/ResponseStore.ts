import type { ChatMessage } from '../agent/agent.js';
import type { Tombstone } from '../errors/UnavailableResponseError.js';

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

/** Stored responses, each with its turn (the input it was given and the answer), chained by `previous_response_id`. */
export interface ResponseStore {
  /** Stores the response with its turn, and the bytes of its whole chain's turns (see `conversationBytes`). */
  /** `owner`, the principal id that made the response, is kept from the first save that gives it, and outlives the response in its tombstone. */
  save(response: ResponseRecord, turn: readonly ChatMessage[], owner?: string): Promise<void>;
  /**
   * Who made response `id`, kept as long as its tombstone (`DEFAULT_OWNER` for one stored before
   * owners were), or undefined when nothing is known of it. The same reads whether it is there or not, whoever made it.
   */
  owner(id: string): Promise<string | undefined>;
  /** The bytes of the stored turns of the chain ending at `id`, none parsed; undefined when there is no such response. */
  conversationBytes(id: string): Promise<number | undefined>;
  /** `R` is the shape the caller stored. */
  get<R extends ResponseRecord>(id: string): Promise<StoredResponse<R> | undefined>;
  /** Replaces the response object and keeps its turn. */
  replace(response: ResponseRecord): Promise<void>;
  /** The responses still queued or in progress that no live process owns: what a dead one left in flight. */
  unfinished<R extends ResponseRecord>(): Promise<R[]>;
  /** Leaves a tombstone; false when there was no stored response. */
  delete(id: string): Promise<boolean>;
  /**
   * The messages of the chain ending at `id`, oldest first; a missing or buried link is
   * `UnavailableResponseError` naming it, a chain over `maxBytes` is `ConversationTooLargeError`
   * before any turn is read, and one of more links than the store walks is `ChainTooLongError`.
   */
  conversation(id: string, maxBytes?: number): Promise<ChatMessage[]>;
}
