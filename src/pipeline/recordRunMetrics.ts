import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import type { AgentEvent, Usage } from '../agent/agentEvent.js';
import { sumUsage, ZERO_USAGE } from '../agent/sumUsage.js';
import { UpstreamError } from '../errors/UpstreamError.js';
import type { Metrics } from '../metrics/createMetrics.js';

/**
 * Records a run's time to first token, its tokens (also for `key`, a key id, when given) and, when it fails upstream, the kind of
 * failure; keeps its usage so far for the log line of a run that ends early. Does not change
 * the stream. Every route that runs an agent applies it, so no route counts these itself.
 *
 * ```
 * source:   --u--t--t--|
 * result:   --u--t--t--|      first t observed into the time-to-first-token histogram
 * ```
 */
export function recordRunMetrics(
  metrics: Metrics,
  onUsage: (usageSoFar: Usage) => void = () => undefined,
  key?: string,
): MonoTypeOperatorFunction<AgentEvent> {
  return (events$) =>
    new Observable<AgentEvent>((subscriber) => {
      const started = performance.now();
      let sawToken = false;
      let usage = ZERO_USAGE;
      // One subscriber for the run's life, where defer and tap held two.
      return events$.subscribe({
        next: (event) => {
          if (!sawToken && (event.type === 'text' || event.type === 'reasoning')) {
            sawToken = true;
            metrics.timeToFirstToken.observe((performance.now() - started) / 1000);
          } else if (event.type === 'usage') {
            usage = sumUsage(usage, event.usage);
            metrics.tokens.inc({ direction: 'in' }, event.usage.inputTokens);
            metrics.tokens.inc({ direction: 'out' }, event.usage.outputTokens);
            if (key !== undefined) {
              metrics.keyTokens.inc({ key, direction: 'in' }, event.usage.inputTokens);
              metrics.keyTokens.inc({ key, direction: 'out' }, event.usage.outputTokens);
            }
            onUsage(usage);
          }
          subscriber.next(event);
        },
        error: (error: unknown) => {
          if (error instanceof UpstreamError) metrics.upstreamErrors.inc({ kind: error.kind });
          subscriber.error(error);
        },
        complete: () => subscriber.complete(),
      });
    });
}
