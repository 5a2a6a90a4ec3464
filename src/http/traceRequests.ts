import { SpanKind, trace } from '@opentelemetry/api';
import type { RequestHandler } from 'express';
import { localsOf } from '../serving/requestLocals.js';
import type { Tracing } from '../tracing/Tracing.js';

/**
 * Starts each request's HTTP server span, continuing the trace of an incoming `traceparent`, and
 * hands it down on `res.locals.trace`; the access log ends it (`endRequestSpan`) once the
 * response is closed, when the route template, the status and the outcome are known.
 * Mounted only with tracing on.
 */
export function traceRequests(tracing: Tracing): RequestHandler {
  return (req, res, next) => {
    const parent = tracing.extract(req.headers);
    const span = tracing.tracer.startSpan(
      req.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': req.method,
          'url.path': req.path,
          'url.scheme': req.protocol,
          'user_agent.original': req.get('user-agent'),
        },
      },
      parent,
    );
    localsOf(res).trace = { tracing, context: trace.setSpan(parent, span), interruptReason: () => undefined };
    next();
  };
}
