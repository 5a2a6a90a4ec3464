import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Usage } from '../agent/agentEvent.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics/createMetrics.js';
import type { StreamOutcome } from '../pipeline/streamOutcome.js';

/** What rxgate keeps on `res.locals` for one request. */
export interface RequestLocals {
  requestId: string;
  logger: Logger;
  /** `performance.now()` when the request arrived. */
  startedAt: number;
  outcome?: StreamOutcome;
  interruptReason?: string;
  /** The run's usage so far, logged when a stream ends early. */
  usage?: Usage;
}

export const localsOf = (res: Response): RequestLocals => res.locals as RequestLocals;

const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;

/** The matched route pattern, never the raw path: metric labels must not grow with ids. */
const routeOf = (req: Request): string => (req.route ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched');

/**
 * Gives each request an id (the client's `X-Request-Id` when it is sane, else a new UUID), echoes
 * it, binds a child logger to it, and when the response is over writes one access-log line and
 * counts the request.
 */
export function requestContext(logger: Logger, metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const offered = req.get('x-request-id');
    const requestId = offered && ACCEPTABLE_ID.test(offered) ? offered : randomUUID();
    const locals = localsOf(res);
    locals.requestId = requestId;
    locals.logger = logger.child({ requestId });
    locals.startedAt = performance.now();
    res.setHeader('X-Request-Id', requestId);
    res.once('close', () => {
      const durationMs = performance.now() - locals.startedAt;
      // This listener is attached before the route's own 'close' listener, which records why the
      // response ended (outcome, interrupt reason, usage): read the locals once that one has run.
      process.nextTick(() => logRequest(durationMs));
    });
    function logRequest(durationMs: number): void {
      const outcome = locals.outcome ?? (res.writableFinished ? 'completed' : 'client_disconnected');
      const route = routeOf(req);
      metrics.requests.inc({ route, status: res.statusCode, outcome });
      if (locals.outcome) metrics.streamDuration.observe({ outcome }, durationMs / 1000);
      const early = locals.interruptReason !== undefined;
      locals.logger.info(
        {
          method: req.method,
          path: req.path,
          status: res.statusCode,
          durationMs: Math.round(durationMs * 1000) / 1000,
          outcome,
          ...(early ? { interruptReason: locals.interruptReason, usage: locals.usage } : {}),
        },
        'request',
      );
    }
    next();
  };
}
