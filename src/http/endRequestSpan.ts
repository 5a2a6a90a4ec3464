import { SpanStatusCode, trace as otelTrace } from '@opentelemetry/api';
import type { Request, Response } from 'express';
import type { Served } from '../serving/served.js';
import { markCancelled } from '../tracing/markCancelled.js';
import type { RunTrace } from '../tracing/RunTrace.js';

/**
 * Ends a request's server span, named `{method} {route template}`, with its status: a 5xx is an
 * error; a client that left ends it with the interrupt reason, which is not one.
 */
export function endRequestSpan(
  trace: RunTrace,
  req: Request,
  res: Response,
  route: string,
  outcome: string,
  served: Served | undefined,
): void {
  const span = otelTrace.getSpan(trace.context)!;
  span.updateName(route === 'unmatched' ? req.method : `${req.method} ${route}`);
  if (route !== 'unmatched') span.setAttribute('http.route', route);
  span.setAttribute('http.response.status_code', res.statusCode);
  span.setAttribute('rxgate.outcome', outcome);
  if (res.statusCode >= 500) {
    span.setAttribute('error.type', String(res.statusCode));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  if (served?.interruptReason !== undefined || outcome === 'client_disconnected') markCancelled(span, served?.interruptReason);
  else span.end();
}
