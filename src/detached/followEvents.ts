import { Observable } from 'rxjs';
import type { EventLog, LoggedEvent } from '../store/EventLog.js';

/**
 * The `ended` of a run in flight on another instance: the follower stops at its log's terminal
 * event, whenever that comes. A mark, not a promise that never settles: every follower would leave
 * a reaction on that one for ever, and with it its closure and its response.
 */
export const UNTIL_TERMINAL = Symbol('until the terminal event');

/** How a follower learns that the run it follows is over; see `FollowOptions.ended`. */
export type RunEnd = Promise<void> | typeof UNTIL_TERMINAL | undefined;

export interface FollowOptions {
  /** Whether an event ends its log (`run.completed`, `response.failed`, ...): the follower is done. */
  readonly isTerminal: (event: LoggedEvent) => boolean;
  /** Resolves once the run has ended and its log is complete; `UNTIL_TERMINAL` when it runs elsewhere; undefined when it is not in flight. */
  readonly ended?: RunEnd;
  /** Emits, like `ended` resolving, once a run that runs elsewhere is found over (its instance died): subscribed while the follower follows. */
  readonly over$?: Observable<unknown>;
  /** Resolves when the subscriber may take another page (its client has drained what it was sent). */
  readonly ready: () => Promise<void>;
  /** Events read from the log at once. Default 256. */
  readonly pageSize?: number;
}

/**
 * The events of log `id` after sequence number `after`: its backlog, a page at a time and each
 * page only once the subscriber is `ready` for it (so a backlog never sits in memory whole), then
 * the events stored from now on, each exactly once and in order, until a terminal event or the
 * run's end. Only stored events are read, so a follower never sees an event that a crash could
 * take back. A cursor past the end of a finished log still gets its terminal event, so that a
 * client that resumes there learns how the run ended.
 *
 * Race-free without any atomic subscribe-and-read: the follower listens for `appended$` before
 * each read, and reads again after any append it heard of, always from its own cursor.
 */
export function followEvents(log: EventLog, id: string, after: number, options: FollowOptions): Observable<LoggedEvent> {
  const { isTerminal, ended, over$, ready, pageSize = 256 } = options;
  return new Observable<LoggedEvent>((subscriber) => {
    let cursor = after;
    let heard = false;
    let wake: (() => void) | undefined;
    const rouse = () => {
      heard = true;
      wake?.();
    };
    const hints = log.appended$(id).subscribe(rouse);
    let runOver = ended === undefined;
    const over = () => {
      runOver = true;
      rouse();
    };
    if (ended instanceof Promise) void ended.then(over);
    const watch = over$?.subscribe(over);
    const follow = async (): Promise<void> => {
      for (;;) {
        heard = false;
        const wasOver = runOver;
        const page = await log.read(id, cursor, pageSize);
        if (subscriber.closed) return;
        for (const event of page) {
          subscriber.next(event);
          cursor = event.seq;
          if (isTerminal(event)) return subscriber.complete();
        }
        if (page.length === pageSize) {
          await ready();
          continue;
        }
        if (wasOver) break;
        if (!heard) await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        if (subscriber.closed) return;
      }
      const last = await log.last(id);
      if (last && last.seq < after && isTerminal(last) && !subscriber.closed) subscriber.next(last);
      subscriber.complete();
    };
    follow().catch((error: unknown) => subscriber.error(error));
    return () => {
      hints.unsubscribe();
      watch?.unsubscribe();
      wake?.();
    };
  });
}
