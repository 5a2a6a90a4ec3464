import { inFlightStreams } from '../metrics/inFlightStreams.js';
import type { Request, Response } from 'express';
import { identity, type Observable } from 'rxjs';
import { startLifecycle } from '../serving/lifecycle.js';
import { routeOf } from '../serving/requestLocals.js';
import type { Served } from '../serving/served.js';
import { serveSse } from '../serving/serveSse.js';
import type { ServingContext } from '../serving/servingContext.js';
import type { SseProtocol } from '../pipeline/sseProtocol.js';
import { drained } from '../sse/drained.js';
import type { LoggedEvent } from '../store/EventLog.js';
import type { DetachedContext } from './detachedContext.js';
import { followEvents, type RunEnd } from './followEvents.js';
import { loggedEventFrame } from './loggedEvent.js';

/** Which log a subscriber follows, from where, and how its API tells that the log has ended. */
export interface FollowedLog {
  readonly id: string;
  /** The sequence number the subscriber has seen, -1 for all. */
  readonly after: number;
  readonly isTerminal: (event: LoggedEvent) => boolean;
  /** See `FollowOptions.ended`: the run's own `ended` here, `UNTIL_TERMINAL` elsewhere, undefined when it is not in flight. */
  readonly ended?: RunEnd;
  /** See `FollowOptions.over$`. */
  readonly over$?: Observable<unknown>;
}

/** What serving logged events needs. */
export type LoggedEventsContext = Omit<ServingContext, 'agent' | 'activeRuns' | 'defaultModel'> & DetachedContext;

const LOGGED_EVENTS: SseProtocol<LoggedEvent, LoggedEvent> = {
  encode: identity,
  frame: loggedEventFrame,
  // A subscriber that was told the run failed got the whole story, but the story is a failure.
  isFailure: ({ type }) => type === 'run.failed' || type === 'response.failed',
};

/**
 * Serves a detached run's logged events to one subscriber as SSE (`event: <type>`, `id: <seq>`),
 * with keepalives and the slow-client bound: the backlog is read a page at a time, each once the
 * client has drained the last. The subscriber's lifecycle is its own, not the run's: a subscriber
 * that leaves, or is cut off, ends only its own stream. At most `RXGATE_MAX_FOLLOWERS_PER_RUN`
 * subscribers follow one log at once (429 `too_many_followers`). `protocol` frames them; by default
 * as `event: <type>`, `id: <seq>` and the event's JSON.
 */
export async function serveLoggedEvents(
  req: Request,
  res: Response,
  log: FollowedLog,
  context: LoggedEventsContext,
  protocol: SseProtocol<LoggedEvent, LoggedEvent> = LOGGED_EVENTS,
): Promise<Served> {
  const leave = context.followers.enter(log.id);
  const lifecycle = startLifecycle({ metrics: context.metrics, inFlight: inFlightStreams(context.metrics, routeOf(req)) });
  try {
    const events$ = followEvents(context.store.events, log.id, log.after, { ...log, ready: () => drained(res) });
    return await serveSse(req, res, events$, protocol, { ...context, lifecycle });
  } finally {
    lifecycle.finish();
    leave();
  }
}
