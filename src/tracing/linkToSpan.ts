import { trace as otelTrace, TraceFlags } from '@opentelemetry/api';
import type { RunTrace } from './RunTrace.js';

/** Links the span of `trace` to a span of another trace: a follower's request to the run it follows. */
export function linkToSpan(trace: RunTrace, traceId: string, spanId: string): void {
  otelTrace.getSpan(trace.context)?.addLink({ context: { traceId, spanId, traceFlags: TraceFlags.SAMPLED } });
}
