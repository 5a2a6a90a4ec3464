import type { Context } from '@opentelemetry/api';
import type { Tracing } from './Tracing.js';

/**
 * What a request hands down to the spans below it: where spans go, the context they are children
 * of, and why the request's work was cut short when it was (read when a span is cancelled).
 */
export interface RunTrace {
  readonly tracing: Tracing;
  readonly context: Context;
  /** The interrupt reason of a cancelled run; undefined while nobody has named one. */
  readonly interruptReason: () => string | undefined;
}
