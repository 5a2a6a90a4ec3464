import type { Config } from '../config.js';
import { NO_TRACING, type Tracing } from './Tracing.js';

export type TracingConfig = Pick<
  Config,
  | 'otelEndpoint'
  | 'otelTracesEndpoint'
  | 'otelTracesProtocol'
  | 'otelServiceName'
  | 'otelTracesSampler'
  | 'otelTracesSamplerArg'
  | 'otelResourceAttributes'
  | 'otelCaptureContent'
>;

/** Where spans are exported: the traces endpoint as it is, else `/v1/traces` under the base endpoint; none means off. */
function tracesUrl({ otelTracesEndpoint, otelEndpoint }: TracingConfig): string | undefined {
  if (otelTracesEndpoint) return otelTracesEndpoint;
  return otelEndpoint ? `${otelEndpoint.replace(/\/+$/, '')}/v1/traces` : undefined;
}

/**
 * Tracing as the `OTEL_*` settings ask for it. Without an endpoint, `NO_TRACING`, and the
 * OpenTelemetry SDK is never loaded; with one, spans are batched and exported over OTLP/HTTP
 * (protobuf or JSON) until `shutdown` flushes them.
 */
export async function startTracing(config: TracingConfig): Promise<Tracing> {
  const url = tracesUrl(config);
  if (!url) return NO_TRACING;
  const [
    { createTracing },
    { createSampler },
    { parseResourceAttributes },
    { resourceFromAttributes },
    { BatchSpanProcessor },
    { OTLPTraceExporter },
  ] = await Promise.all([
    import('./createTracing.js'),
    import('./createSampler.js'),
    import('./parseResourceAttributes.js'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    config.otelTracesProtocol === 'http/json'
      ? import('@opentelemetry/exporter-trace-otlp-http')
      : import('@opentelemetry/exporter-trace-otlp-proto'),
  ]);
  const resource = resourceFromAttributes({
    ...parseResourceAttributes(config.otelResourceAttributes),
    'service.name': config.otelServiceName,
  });
  return createTracing({
    processor: new BatchSpanProcessor(new OTLPTraceExporter({ url })),
    sampler: createSampler(config),
    resource,
    captureContent: config.otelCaptureContent,
  });
}
