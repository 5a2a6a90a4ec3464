import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from '@opentelemetry/sdk-trace-base';
import type { Config } from '../config.js';

/** The sampler `OTEL_TRACES_SAMPLER` (and `OTEL_TRACES_SAMPLER_ARG`, the ratio) names. */
export function createSampler({
  otelTracesSampler,
  otelTracesSamplerArg,
}: Pick<Config, 'otelTracesSampler' | 'otelTracesSamplerArg'>): Sampler {
  const root = otelTracesSampler.replace(/^parentbased_/, '');
  const sampler =
    root === 'always_on'
      ? new AlwaysOnSampler()
      : root === 'always_off'
        ? new AlwaysOffSampler()
        : new TraceIdRatioBasedSampler(otelTracesSamplerArg);
  return otelTracesSampler.startsWith('parentbased_') ? new ParentBasedSampler({ root: sampler }) : sampler;
}
