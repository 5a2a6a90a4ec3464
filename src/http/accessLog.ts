import type { Request, Response } from 'express';
import type { Metrics } from '../metrics/createMetrics.js';
import { localsOf, routeOf } from '../serving/requestLocals.js';
import type { Served } from '../serving/served.js';
import { traceIdOf } from '../tracing/traceIdOf.js';
import { endRequestSpan } from './endRequestSpan.js';

/** Writes a request's access-log line and counts it, once its response is closed. */
export type AccessLog = (req: Request, res: Response, served?: Served) => void;

/**
 * One JSON line per request (method, original path, status, duration, outcome, the key's id; the interrupt
 * reason and usage so far for a run that ended early) and `rxgate_requests_total`. `served` is
 * what the route resolved to; a request without one (an error, a plain JSON answer) completed
 * if its response was written in full.
 */
export function createAccessLog(metrics: Metrics): AccessLog {
  return (req, res, served) => {
    const write = () => {
      const locals = localsOf(res);
      const durationMs = performance.now() - locals.startedAt;
      const outcome = served?.outcome ?? (res.writableFinished ? 'completed' : 'client_disconnected');
      const route = routeOf(req);
      metrics.requests.inc({ route, status: res.statusCode, outcome });
      const { trace } = locals;
      if (trace) endRequestSpan(trace, req, res, route, outcome, served);
      if (served) metrics.streamDuration.observe({ outcome }, durationMs / 1000);
      const early = served?.interruptReason !== undefined;
      locals.logger.info(
        {
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          durationMs: Math.round(durationMs * 1000) / 1000,
          outcome,
          // The key's id, never the key: a refused request names none, since what it sent identifies nobody.
          ...(res.statusCode === 401 ? {} : { key: locals.principal.id }),
          ...(early ? { interruptReason: served.interruptReason, usage: served.usage } : {}),
          ...(trace ? { trace_id: traceIdOf(trace) } : {}),
        },
        'request',
      );
    };
    if (res.closed) write();
    else res.once('close', write);
  };
}
