import type { Context } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type Span, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createTracing } from '../../src/tracing/createTracing.js';
import type { Tracing } from '../../src/tracing/Tracing.js';

export interface MemoryTracing {
  readonly tracing: Tracing;
  /** Every span ended so far. */
  spans(): ReadableSpan[];
  /** The names of the spans started and not yet ended. */
  open(): string[];
  /** The one ended span of that name (fails if there are none or several). */
  span(name: string): ReadableSpan;
}

/** Tracing on, into an in-memory exporter, that also knows which spans are still open. */
export function memoryTracing(options: { captureContent?: boolean } = {}): MemoryTracing {
  const exporter = new InMemorySpanExporter();
  const exporting = new SimpleSpanProcessor(exporter);
  const started = new Set<Span>();
  const processor: SpanProcessor = {
    onStart: (span: Span, context: Context) => {
      started.add(span);
      exporting.onStart(span, context);
    },
    onEnd: (span: ReadableSpan) => {
      started.delete(span as Span);
      exporting.onEnd(span);
    },
    forceFlush: () => exporting.forceFlush(),
    shutdown: () => exporting.shutdown(),
  };
  const tracing = createTracing({ processor, captureContent: options.captureContent });
  const spans = () => exporter.getFinishedSpans();
  return {
    tracing,
    spans,
    open: () => [...started].map((span) => span.name),
    span: (name) => {
      const named = spans().filter((span) => span.name === name);
      if (named.length !== 1)
        throw new Error(
          `${named.length} spans named ${name}: ${spans()
            .map((span) => span.name)
            .join(', ')}`,
        );
      return named[0]!;
    },
  };
}
