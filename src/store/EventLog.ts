import type { Observable } from 'rxjs';

/** One event of a detached run's log: `seq` orders it (and is its SSE id), `data` is its JSON. */
export interface LoggedEvent {
  readonly seq: number;
  readonly type: string;
  readonly data: string;
}

/**
 * The event logs of detached runs, the source of truth of what their followers see: an event is
 * shown to a follower only once `append` has stored it, so a crash never takes back an event a
 * client saw.
 */
export interface EventLog {
  /** Stores `events` (in order, after those already stored); resolves once they are stored. */
  append(streamId: string, events: readonly LoggedEvent[]): Promise<void>;
  /** Stores what was appended so far now, where a log batches its writes (SQLite): for an answer somebody waits on. */
  flush(): Promise<void>;
  /** At most `limit` stored events of `streamId` after sequence number `after`, in order. */
  read(streamId: string, after: number, limit: number): Promise<LoggedEvent[]>;
  /** The last stored event of `streamId`. */
  last(streamId: string): Promise<LoggedEvent | undefined>;
  /** Stores one event after the last one stored (recovery ends a log that a dead process left open). */
  appendLast(streamId: string, event: (seq: number) => Omit<LoggedEvent, 'seq'>): Promise<LoggedEvent>;
  remove(streamId: string): Promise<void>;
  /**
   * Removes log `streamId` once `afterMs` have passed (or later: SQLite's retention pass does it),
   * for a log that no run or response takes with it (an idempotent chat completion's). Call it
   * after the log's first event is stored; a later call sets a new time.
   */
  expire(streamId: string, afterMs: number): Promise<void>;
  /** Emits after events of `streamId` were stored (by any process sharing the log): a hint to read, never an event itself. */
  appended$(streamId: string): Observable<void>;
}
