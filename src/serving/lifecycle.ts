import { NEVER, type MonoTypeOperatorFunction, type Observable } from 'rxjs';
import type { AgentEvent, Usage } from '../agent/agentEvent.js';
import { Cancellation } from '../agent/cancellation.js';
import { DEFAULTS } from '../config.js';
import type { Metrics } from '../metrics/createMetrics.js';
import { maxOutput } from '../operators/maxOutput.js';
import type { ActiveRun, ActiveRuns } from './activeRuns.js';
import { recordRunMetrics } from './recordRunMetrics.js';

export interface LifecycleOptions {
  readonly metrics: Metrics;
  /** What it counts in while it lasts: `rxgate_in_flight_streams{route}` or `rxgate_in_flight_runs`. */
  readonly inFlight: { inc(): void; dec(): void };
  /** Registers the run, so that shutdown and stop requests can end it. Default: not registered (a follower of someone else's run). */
  readonly activeRuns?: ActiveRuns;
  /** Characters of text and reasoning `record` lets one answer have (`RXGATE_MAX_OUTPUT_CHARS`). Default: that setting's default. */
  readonly maxOutputChars?: number;
  /** The key id (principal id) its tokens are counted for in `rxgate_key_tokens_total`. Default: counted for no key. */
  readonly key?: string;
}

/** One request's or one detached run's life: started, counted, recorded, finished once. */
export interface Lifecycle {
  readonly cancellation: Cancellation;
  /** Emits when the server ends the run: a stop request or shutdown (the reason is named on `cancellation`). */
  readonly stop$: Observable<void>;
  /**
   * Applied to every agent run: caps its output at `maxOutputChars` (the answer then ends with a
   * `length` finish and the run is interrupted with `Output limit reached`), records its events
   * (time to first token, tokens, upstream failures) and keeps its usage so far.
   */
  readonly record: MonoTypeOperatorFunction<AgentEvent>;
  /** The usage recorded so far, if any. */
  readonly usage: Usage | undefined;
  /** Uncounts and unregisters it; only the first call does anything. */
  finish(): void;
}

/** A lifecycle as an object with its methods on a class: an object literal with a getter was a 0.5 KB dictionary for every open stream. */
class RunLifecycle implements Lifecycle {
  readonly cancellation = new Cancellation();
  readonly stop$: Observable<void>;
  readonly record: MonoTypeOperatorFunction<AgentEvent>;
  #usage: Usage | undefined;
  #finished = false;
  readonly #inFlight: LifecycleOptions['inFlight'];
  readonly #registration: ActiveRun | undefined;

  constructor({ metrics, inFlight, activeRuns, maxOutputChars = DEFAULTS.maxOutputChars, key }: LifecycleOptions) {
    // One cap for every API, so that an upstream that never stops cannot grow an answer without bound.
    const capOutput = maxOutput({ maxChars: maxOutputChars, cancellation: this.cancellation, includeReasoning: true });
    const recordMetrics = recordRunMetrics(metrics, (usageSoFar) => (this.#usage = usageSoFar), key);
    this.record = (events$) => events$.pipe(capOutput, recordMetrics);
    this.#registration = activeRuns?.add(this.cancellation);
    this.stop$ = this.#registration?.stop$ ?? NEVER;
    this.#inFlight = inFlight;
    inFlight.inc();
  }

  get usage(): Usage | undefined {
    return this.#usage;
  }

  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#inFlight.dec();
    this.#registration?.finish();
  }
}

/**
 * Starts the one lifecycle every route and every detached run goes through: a `Cancellation`,
 * the registration that lets shutdown interrupt it, the in-flight gauge, the run's output cap and
 * its metrics.
 *
 * @example
 * const lifecycle = startLifecycle({ metrics, inFlight: inFlightStreams(metrics, route), activeRuns });
 * try {
 *   await serveSse(res, agent.run(request, lifecycle.cancellation).pipe(lifecycle.record), protocol, { lifecycle, ... });
 * } finally {
 *   lifecycle.finish();
 * }
 */
export function startLifecycle(options: LifecycleOptions): Lifecycle {
  return new RunLifecycle(options);
}
