import { SpanKind } from '@opentelemetry/api';
import type { Observable } from 'rxjs';
import type { RunTrace } from '../tracing/RunTrace.js';
import { traced } from '../tracing/traced.js';
import type { UpstreamChunk } from './upstreamChunk.js';
import type { AttemptInfo } from './AttemptObserver.js';

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/**
 * One upstream attempt of a model call as a client span `attempt {upstream}` under the `chat {model}`
 * span: the upstream, the name it knows the model by, the attempt number, the wait before it, where
 * it went, and the id and model of its response. `attempt$` is handed the attempt span's own W3C
 * headers, so that each upstream request carries exactly one `traceparent`, its attempt's. A failure
 * (a timeout included) is an error with its `error.type`; a cancel is not.
 */
export function traceAttempt(
  trace: RunTrace,
  { upstream, model, route, attempt, waitedMs }: AttemptInfo,
  url: string,
  attempt$: (traceHeaders: Record<string, string>) => Observable<UpstreamChunk>,
): Observable<UpstreamChunk> {
  const { hostname, port, protocol } = new URL(url);
  return traced(
    trace,
    {
      name: `attempt ${upstream}`,
      kind: SpanKind.CLIENT,
      attributes: {
        'rxgate.upstream.id': upstream,
        'rxgate.upstream.attempt': attempt,
        'rxgate.upstream.retry_wait': waitedMs / 1000,
        'rxgate.route': route,
        'gen_ai.request.model': model,
        // An IPv6 host is bracketed in a URL, and bare in `server.address`.
        'server.address': hostname.replace(/^\[(.*)\]$/, '$1'),
        'server.port': port ? Number(port) : DEFAULT_PORTS[protocol],
      },
      onValue: (span, chunk) => {
        if (chunk.id !== undefined) span.setAttribute('gen_ai.response.id', chunk.id);
        if (chunk.model !== undefined) span.setAttribute('gen_ai.response.model', chunk.model);
      },
    },
    (context) => attempt$(trace.tracing.inject(context)),
  );
}
