import { concat, defer, EMPTY, filter, from, type Observable } from 'rxjs';
import type { EventLog, LoggedEvent } from '../store/EventLog.js';

import type { DetachedRun } from './DetachedRuns.js';

/**
 * The events of detached run `id` after sequence number `after`: its backlog from the log, then
 * the live events of `run` if it is still in flight, each exactly once. Race-free because the backlog read is synchronous (SQLite plus
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
export function replayEvents(log: EventLog, id: string, run: DetachedRun | undefined, after: number): Observable<LoggedEvent> {
  return defer(() => {
    const live$ = run?.live$ ?? EMPTY;
    const backlog = log.read(id, after);
    const cursor = backlog.at(-1)?.seq ?? after;
    return concat(from(backlog), live$.pipe(filter((event) => event.seq > cursor)));
  });
}
