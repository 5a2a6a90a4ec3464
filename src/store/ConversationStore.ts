/** A stored conversation: what the API shows of it, who owns it, and the bytes of its items. */
export interface ConversationRecord {
  readonly id: string;
  /** Unix seconds. */
  readonly created_at: number;
  readonly metadata: Readonly<Record<string, string>>;
  readonly owner: string;
  /** The bytes of its items' JSON, so that its size is known before any item is read. */
  readonly bytes: number;
}

/** One item of a conversation as the API shows it: an id, a type, and the rest of its fields, which the store keeps as they are. */
export interface ConversationItem {
  readonly id: string;
  readonly type: string;
}

/**
 * Conversations and their items, oldest first, each conversation with its lock: a lease that one
 * response (or run) at a time holds while it continues the conversation, and that lapses after
 * `leaseMs` unless renewed, so that a holder that died does not keep it. Deleting a conversation
 * deletes its items; retention evicts conversations not written to for the retention's age, or
 * past its count, as for responses.
 */
export interface ConversationStore {
  /** How long a lock lasts unless `lock` renews it. */
  readonly leaseMs: number;
  create(conversation: Omit<ConversationRecord, 'bytes'>, items: readonly ConversationItem[]): Promise<void>;
  get(id: string): Promise<ConversationRecord | undefined>;
  /** Undefined when there is no such conversation. */
  setMetadata(id: string, metadata: Readonly<Record<string, string>>): Promise<ConversationRecord | undefined>;
  /** Deletes it with its items; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** Its items, oldest first; undefined when there is no such conversation. */
  items(id: string): Promise<ConversationItem[] | undefined>;
  item(id: string, itemId: string): Promise<ConversationItem | undefined>;
  /** False when there was no such item. */
  deleteItem(id: string, itemId: string): Promise<boolean>;
  /** Appends items after the last; false when there is no such conversation, or `holder` is given and does not hold its lock. */
  append(id: string, items: readonly ConversationItem[], holder?: string): Promise<boolean>;
  /** Takes the lock for `holder`, or renews it if `holder` has it; false while another holds it. */
  lock(id: string, holder: string): Promise<boolean>;
  /** Gives the lock back if `holder` has it. */
  unlock(id: string, holder: string): Promise<void>;
}

/** The bytes an item counts for in a conversation's size: its JSON's. */
export const itemBytes = (item: ConversationItem): number => Buffer.byteLength(JSON.stringify(item));
