import { trace as otelTrace } from '@opentelemetry/api';
import type { RunTrace } from './RunTrace.js';

/** The id of the span a request's or a run's spans are children of, for a later request to link to. */
export function spanIdOf(trace: RunTrace): string {
  return otelTrace.getSpanContext(trace.context)?.spanId ?? '';
}
