import type { Observable } from 'rxjs';

/**
 * Wake-ups for the followers of Redis Streams, heard from appends by any instance: a hint to read
 * the stream from their own cursor, never an event. However many follow, an instance's watcher
 * holds a bounded number of connections, and nothing of a follower outlives its subscription.
 */
export interface StreamWatcher {
  /** Emits after entries are stored in stream `key`, and once when the watch is in place: whatever came before is the follower's own read's to find. */
  watch(key: string): Observable<void>;
  /** Whether appends must be announced (`SPUBLISH` of the last entry id on `RedisKeys.appended(key)`) for this watcher to hear them. */
  readonly needsAnnouncements: boolean;
  /** How many streams are watched now (the leak check reads it). */
  readonly watched: number;
  connect(): Promise<void>;
  close(): Promise<void>;
}
