import { defer, tap, type MonoTypeOperatorFunction } from 'rxjs';
import type { AgentEvent, Usage } from '../agent/agentEvent.js';
import { sumUsage, ZERO_USAGE } from '../agent/sumUsage.js';
import type { Metrics } from './createMetrics.js';

/**
 * Records a run's time to first token and its tokens, and keeps its usage so far for the log
 * line of a run that ends early. Does not change the stream.
 *
 * ```
 * source:   --u--t--t--|
 * result:   --u--t--t--|      first t observed into the time-to-first-token histogram
 * ```
 */
export function recordRunMetrics(metrics: Metrics, onUsage: (usageSoFar: Usage) => void): MonoTypeOperatorFunction<AgentEvent> {
  return (events$) =>
    defer(() => {
      const started = performance.now();
      let sawToken = false;
      let usage = ZERO_USAGE;
      return events$.pipe(
        tap((event) => {
          if (!sawToken && (event.type === 'text' || event.type === 'reasoning')) {
            sawToken = true;
            metrics.timeToFirstToken.observe((performance.now() - started) / 1000);
          } else if (event.type === 'usage') {
            usage = sumUsage(usage, event.usage);
            metrics.tokens.inc({ direction: 'in' }, event.usage.inputTokens);
            metrics.tokens.inc({ direction: 'out' }, event.usage.outputTokens);
            onUsage(usage);
          }
        }),
      );
    });
}
