import { defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { AlwaysOnSampler, BasicTracerProvider, type Sampler, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Tracing } from './Tracing.js';

export interface TracingOptions {
  /** Where ended spans go: a `BatchSpanProcessor` over an OTLP exporter, or a `SimpleSpanProcessor` over an in-memory one in tests. */
  readonly processor: SpanProcessor;
  /** Default: every span sampled. */
  readonly sampler?: Sampler;
  /** Default: `service.name` `rxgate`. */
  readonly resource?: Resource;
  /** Whether spans carry message content, tool arguments and results. Default: false. */
  readonly captureContent?: boolean;
}

/**
 * Tracing on, with the OpenTelemetry SDK: a tracer provider of its own (none is registered
 * globally; rxgate hands its tracer down) and W3C trace context in and out. Loaded only when
 * tracing is asked for (`startTracing` imports it dynamically).
 */
export function createTracing({
  processor,
  sampler = new AlwaysOnSampler(),
  resource = resourceFromAttributes({ 'service.name': 'rxgate' }),
  captureContent = false,
}: TracingOptions): Tracing {
  const provider = new BasicTracerProvider({ resource, sampler, spanProcessors: [processor] });
  const propagator = new W3CTraceContextPropagator();
  return {
    enabled: true,
    tracer: provider.getTracer('rxgate'),
    captureContent,
    extract: (headers) => propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter),
    inject: (context) => {
      const headers: Record<string, string> = {};
      propagator.inject(context, headers, defaultTextMapSetter);
      return headers;
    },
    shutdown: () => provider.shutdown(),
  };
}
