import { Subject, Subscription, type Observable } from 'rxjs';
import { Cancellation } from '../agent/cancellation.js';
import type { InterruptReason } from '../agent/interruptReason.js';
import { RequestError } from '../errors/RequestError.js';
import type { ActiveRuns } from '../http/activeRuns.js';
import type { Metrics } from '../metrics/createMetrics.js';
import type { EventLog } from '../store/EventLog.js';
import type { LoggedEvent } from '../store/loggedEvent.js';

/** How a detached run's events ended: on their own (perhaps after a failure), or interrupted with a reason. */
export interface DetachedRunEnd {
  readonly reason?: InterruptReason;
  /** The sequence number the next event would have. */
  readonly nextSeq: number;
}

/** A run that belongs to no connection: it goes on whether or not anybody listens. */
export interface DetachedRun {
  readonly id: string;
  readonly cancellation: Cancellation;
  /** The events published from now on; completes when the run has ended and its log is written. */
  readonly live$: Observable<LoggedEvent>;
  /** Names the reason, unsubscribes the run (which interrupts the agent), and resolves once it ended. */
  stop(reason: InterruptReason): Promise<void>;
}

export interface DetachedRunsOptions {
  readonly activeRuns: ActiveRuns;
  readonly log: EventLog;
  readonly metrics: Metrics;
  /** More detached runs than this at once are refused with 429. */
  readonly maxConcurrent: number;
}

/**
 * The detached runs in flight (background responses and runs): each logs every event and
 * publishes it to its live subscribers, and is registered with `ActiveRuns` so that shutdown
 * interrupts it.
 */
export class DetachedRuns {
  readonly #runs = new Map<string, DetachedRun>();

  constructor(private readonly options: DetachedRunsOptions) {}

  get(id: string): DetachedRun | undefined {
    return this.#runs.get(id);
  }

  /** Throws the 429 a client gets when the cap is reached; call before creating anything. */
  assertCapacity(): void {
    const { maxConcurrent } = this.options;
    if (this.#runs.size >= maxConcurrent) {
      throw new RequestError(
        429,
        `${this.#runs.size} runs are already in flight, the most RXGATE_MAX_CONCURRENT_RUNS allows (${maxConcurrent}); retry when one has finished`,
        'rate_limit_error',
        null,
        'too_many_runs',
      );
    }
  }

  /**
   * Subscribes `events$(cancellation)` now, detached from any connection. `onEnd` records the
   * outcome and returns the terminal events an interrupted run still owes its log.
   */
  start(
    id: string,
    events$: (cancellation: Cancellation) => Observable<LoggedEvent>,
    onEnd: (end: DetachedRunEnd) => LoggedEvent[],
  ): DetachedRun {
    this.assertCapacity();
    const { activeRuns, log, metrics } = this.options;
    const cancellation = new Cancellation();
    const live$ = new Subject<LoggedEvent>();
    const registration = activeRuns.add(cancellation);
    let nextSeq = 0;
    let over = false;
    const subscription = new Subscription();
    const publish = (event: LoggedEvent) => {
      nextSeq = event.seq + 1;
      // Logged before it is published: a subscriber that reads the backlog never misses it.
      log.append(id, event);
      live$.next(event);
    };
    const end = (reason?: InterruptReason) => {
      if (over) return;
      over = true;
      for (const event of onEnd({ reason, nextSeq })) publish(event);
      log.flush();
      this.#runs.delete(id);
      metrics.inFlightRuns.dec();
      live$.complete();
      registration.finish();
    };
    const run: DetachedRun = {
      id,
      cancellation,
      live$: live$.asObservable(),
      stop: (reason) => {
        cancellation.cancelWith(reason);
        subscription.unsubscribe();
        end(cancellation.reason);
        return registration.finished;
      },
    };
    this.#runs.set(id, run);
    metrics.inFlightRuns.inc();
    // Shutdown names its reason on the cancellation before it signals.
    registration.stop$.subscribe(() => void run.stop(cancellation.reason));
    subscription.add(events$(cancellation).subscribe({ next: publish, complete: () => end(), error: () => end() }));
    return run;
  }
}
