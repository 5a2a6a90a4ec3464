import { asyncScheduler, defer, tap, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';

/** What `measure` reports about one run. */
export interface StreamMetrics {
  /** Text deltas that carried at least one character. */
  readonly deltas: number;
  /** UTF-8 bytes of those deltas. */
  readonly bytes: number;
  /** Milliseconds from subscription to the first text delta; `null` if there was none. */
  readonly timeToFirstTokenMs: number | null;
  /** Milliseconds from subscription to the end. */
  readonly durationMs: number;
  /** How the stream ended. */
  readonly end: 'complete' | 'error' | 'unsubscribe';
}

export interface MeasureOptions {
  /** The clock. Default: `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/**
 * Counts a run's text deltas, their UTF-8 bytes and its time to first token, and reports them once
 * when the stream ends, whether it completes, fails or is unsubscribed. The stream passes unchanged.
 * `onMetrics` runs inside the stream's teardown, so it must not throw.
 *
 * ```
 * source:    -r-a-b-f|           b = "é👍"
 * result:    -r-a-b-f|
 * onMetrics:         x          { deltas: 2, bytes: 7, timeToFirstTokenMs: 3, durationMs: 8, end: 'complete' }
 * ```
 *
 * @example
 * run$.pipe(measure((metrics) => log.info(metrics, 'answer streamed')));
 */
export function measure(
  onMetrics: (metrics: StreamMetrics) => void,
  { scheduler = asyncScheduler }: MeasureOptions = {},
): MonoTypeOperatorFunction<AgentEvent> {
  return (events$) =>
    defer(() => {
      const startedAt = scheduler.now();
      let deltas = 0;
      let bytes = 0;
      let timeToFirstTokenMs: number | null = null;
      let end: StreamMetrics['end'] = 'unsubscribe';
      return events$.pipe(
        tap({
          next: (event) => {
            if (event.type !== 'text' || event.delta === '') return;
            timeToFirstTokenMs ??= scheduler.now() - startedAt;
            deltas += 1;
            bytes += Buffer.byteLength(event.delta, 'utf8');
          },
          error: () => (end = 'error'),
          complete: () => (end = 'complete'),
          finalize: () => onMetrics({ deltas, bytes, timeToFirstTokenMs, durationMs: scheduler.now() - startedAt, end }),
        }),
      );
    });
}
