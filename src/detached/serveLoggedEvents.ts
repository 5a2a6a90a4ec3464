import type { Request, Response } from 'express';
import { identity, type Observable } from 'rxjs';
import { startLifecycle } from '../pipeline/lifecycle.js';
import { routeOf } from '../pipeline/requestLocals.js';
import type { Served } from '../pipeline/served.js';
import { serveSse } from '../pipeline/serveSse.js';
import type { ServingContext } from '../pipeline/servingContext.js';
import type { SseProtocol } from '../pipeline/sseProtocol.js';
import type { LoggedEvent } from '../store/EventLog.js';
import { loggedEventFrame } from './loggedEvent.js';

const LOGGED_EVENTS: SseProtocol<LoggedEvent, LoggedEvent> = {
  encode: identity,
  frame: loggedEventFrame,
  // A subscriber that was told the run failed got the whole story, but the story is a failure.
  isFailure: ({ type }) => type === 'run.failed' || type === 'response.failed',
};

/**
 * Serves a detached run's events to one subscriber as SSE (`event: <type>`, `id: <seq>`), with
 * keepalives and the slow-client bound. The subscriber's lifecycle is its own, not the run's: a
 * subscriber that leaves, or is cut off, ends only its own stream.
 */
export async function serveLoggedEvents(
  req: Request,
  res: Response,
  events$: Observable<LoggedEvent>,
  context: Omit<ServingContext, 'agent' | 'activeRuns' | 'defaultModel'>,
): Promise<Served> {
  const lifecycle = startLifecycle({ metrics: context.metrics, inFlight: context.metrics.inFlightStreams.labels(routeOf(req)) });
  try {
    return await serveSse(req, res, events$, LOGGED_EVENTS, { ...context, lifecycle });
  } finally {
    lifecycle.finish();
  }
}
