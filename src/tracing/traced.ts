import { SpanStatusCode, trace as otelTrace, type Attributes, type Context, type Link, type Span, type SpanKind } from '@opentelemetry/api';
import { defer, tap, type Observable } from 'rxjs';
import { errorTypeOf } from './errorTypeOf.js';
import { markCancelled } from './markCancelled.js';
import type { RunTrace } from './RunTrace.js';

export interface SpanSpec<T> {
  readonly name: string;
  readonly kind: SpanKind;
  readonly attributes: Attributes;
  readonly links?: readonly Link[];
  /** Told every value, to set attributes and events from it. */
  readonly onValue?: (span: Span, value: T) => void;
  /** Told when the work completed, before the span ends. */
  readonly onComplete?: (span: Span) => void;
}

/**
 * Runs `work$` inside a span of `trace`: started at subscription, a child of `trace.context`, its own
 * context handed to `work` (explicitly: RxJS does not carry OpenTelemetry's active context). It
 * ends when the work completes (status unset), fails (status error, `error.type` the error frame's
 * code) or is unsubscribed before either (ended at that moment, with the interrupt reason, not an error).
 *
 * ```
 * work:  --a--b--|        --a--#        --a--!
 * span:  ^-------]ok      ^----]error   ^----]cancelled (event rxgate.client_disconnected)
 * ```
 */
export function traced<T>(trace: RunTrace, spec: SpanSpec<T>, work$: (context: Context, span: Span) => Observable<T>): Observable<T> {
  return defer(() => {
    const span = trace.tracing.tracer.startSpan(
      spec.name,
      { kind: spec.kind, attributes: spec.attributes, links: spec.links ? [...spec.links] : undefined },
      trace.context,
    );
    return work$(otelTrace.setSpan(trace.context, span), span).pipe(
      tap({
        next: spec.onValue && ((value) => spec.onValue!(span, value)),
        complete: () => {
          spec.onComplete?.(span);
          span.end();
        },
        error: (error: unknown) => {
          const type = errorTypeOf(error);
          span.setAttribute('error.type', type);
          span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
          span.end();
        },
        unsubscribe: () => markCancelled(span, trace.interruptReason()),
      }),
    );
  });
}
