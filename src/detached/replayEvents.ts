import { concat, defer, EMPTY, filter, from, type Observable } from 'rxjs';
import type { EventLog } from '../store/EventLog.js';
import type { LoggedEvent } from './loggedEvent.js';
import type { DetachedRuns } from './DetachedRuns.js';

/**
 * The events of a detached run after sequence number `after`: its backlog from the log, then its
 * live events, each exactly once. Race-free because the backlog read is synchronous (SQLite plus
 * the unwritten buffer) and `concat` subscribes to the live events in the same turn in which the
 * backlog was emitted, while events are published only in later turns; the `seq` filter drops
 * anything the backlog already held.
 *
 * ```
 * log:      a b c           (after = a)
 * live$:    --------d--e--|
 * result:   (bc)----d--e--|
 * ```
 */
export function replayEvents(log: EventLog, runs: DetachedRuns, id: string, after: number): Observable<LoggedEvent> {
  return defer(() => {
    const live$ = runs.get(id)?.live$ ?? EMPTY;
    const backlog = log.read(id, after);
    const cursor = backlog.at(-1)?.seq ?? after;
    return concat(from(backlog), live$.pipe(filter((event) => event.seq > cursor)));
  });
}
