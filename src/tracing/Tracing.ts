import { ROOT_CONTEXT, trace, type Context, type Tracer } from '@opentelemetry/api';

/**
 * Where rxgate's spans go, handed down explicitly (RxJS operators do not carry OpenTelemetry's
 * active context, and rxgate registers no global provider). `NO_TRACING` is what "off" is: every
 * caller checks `enabled` (or the absence of a `RunTrace`) once and does nothing more.
 */
export interface Tracing {
  readonly enabled: boolean;
  readonly tracer: Tracer;
  /** `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`: whether spans carry messages, tool arguments and results. */
  readonly captureContent: boolean;
  /** The context an incoming request's `traceparent` (and `tracestate`) carries; the root context without one. */
  extract(headers: Readonly<Record<string, string | string[] | undefined>>): Context;
  /** The W3C trace context headers (`traceparent`, and `tracestate` when there is one) of `context`'s span. */
  inject(context: Context): Record<string, string>;
  /** Exports what is still buffered and stops exporting. */
  shutdown(): Promise<void>;
}

/** Tracing off: no SDK, no spans, nothing to flush. */
export const NO_TRACING: Tracing = {
  enabled: false,
  tracer: trace.getTracer('rxgate'),
  captureContent: false,
  extract: () => ROOT_CONTEXT,
  inject: () => ({}),
  shutdown: async () => undefined,
};
