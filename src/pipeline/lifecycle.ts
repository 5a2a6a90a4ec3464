import { NEVER, type MonoTypeOperatorFunction, type Observable } from 'rxjs';
import type { AgentEvent, Usage } from '../agent/agentEvent.js';
import { Cancellation } from '../agent/cancellation.js';
import type { Metrics } from '../metrics/createMetrics.js';
import type { ActiveRuns } from './activeRuns.js';
import { recordRunMetrics } from './recordRunMetrics.js';

export interface LifecycleOptions {
  readonly metrics: Metrics;
  /** What it counts in while it lasts: `rxgate_in_flight_streams{route}` or `rxgate_in_flight_runs`. */
  readonly inFlight: { inc(): void; dec(): void };
  /** Registers the run, so that shutdown and stop requests can end it. Default: not registered (a follower of someone else's run). */
  readonly activeRuns?: ActiveRuns;
}

/** One request's or one detached run's life: started, counted, recorded, finished once. */
export interface Lifecycle {
  readonly cancellation: Cancellation;
  /** Emits when the server ends the run: a stop request or shutdown (the reason is named on `cancellation`). */
  readonly stop$: Observable<void>;
  /** Records the run's events (time to first token, tokens, upstream failures) and keeps its usage so far. */
  readonly record: MonoTypeOperatorFunction<AgentEvent>;
  /** The usage recorded so far, if any. */
  readonly usage: Usage | undefined;
  /** Uncounts and unregisters it; only the first call does anything. */
  finish(): void;
}

/**
 * Starts the one lifecycle every route and every detached run goes through: a `Cancellation`,
 * the registration that lets shutdown interrupt it, the in-flight gauge, the run's metrics.
 *
 * @example
 * const lifecycle = startLifecycle({ metrics, inFlight: metrics.inFlightStreams.labels(route), activeRuns });
 * try {
 *   await serveSse(res, agent.run(request, lifecycle.cancellation).pipe(lifecycle.record), protocol, { lifecycle, ... });
 * } finally {
 *   lifecycle.finish();
 * }
 */
export function startLifecycle({ metrics, inFlight, activeRuns }: LifecycleOptions): Lifecycle {
  const cancellation = new Cancellation();
  const registration = activeRuns?.add(cancellation);
  inFlight.inc();
  let usage: Usage | undefined;
  let finished = false;
  return {
    cancellation,
    stop$: registration?.stop$ ?? NEVER,
    record: recordRunMetrics(metrics, (usageSoFar) => (usage = usageSoFar)),
    get usage() {
      return usage;
    },
    finish() {
      if (finished) return;
      finished = true;
      inFlight.dec();
      registration?.finish();
    },
  };
}
