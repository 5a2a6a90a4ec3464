import { trace as otelTrace } from '@opentelemetry/api';
import type { RunTrace } from './RunTrace.js';

/** The trace id a request's or a run's spans belong to, for log lines and run events. */
export function traceIdOf(trace: RunTrace): string {
  return otelTrace.getSpanContext(trace.context)?.traceId ?? '';
}
