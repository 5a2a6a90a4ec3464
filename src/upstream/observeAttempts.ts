import type { Metrics } from '../metrics/createMetrics.js';
import type { AttemptObserver } from './AttemptObserver.js';

const BREAKER_STATES = { closed: 0, half_open: 1, open: 2 } as const;

/** The attempt observer that keeps the upstream metrics: attempts by outcome, fallbacks, breakers, waits. */
export function observeAttempts(metrics: Metrics): AttemptObserver {
  return {
    attemptStarted({ requested, route, attempt, waitedMs }) {
      if (attempt > 1) metrics.upstreamRetryWait.observe(waitedMs / 1000);
      if (route !== requested) metrics.upstreamFallbacks.inc({ from: requested, to: route });
    },
    attemptEnded({ upstream }, outcome) {
      metrics.upstreamAttempts.inc({ upstream, outcome });
    },
    breakerChanged(upstream, state) {
      metrics.upstreamBreakerState.set({ upstream }, BREAKER_STATES[state]);
    },
  };
}
