import { Subject, Subscription, type Observable } from 'rxjs';
import type { Cancellation } from '../agent/cancellation.js';
import type { InterruptReason } from '../agent/interruptReason.js';
import { CapacityError } from '../errors/CapacityError.js';
import type { Metrics } from '../metrics/createMetrics.js';
import type { ActiveRuns } from '../pipeline/activeRuns.js';
import { startLifecycle, type Lifecycle } from '../pipeline/lifecycle.js';
import type { EventLog, LoggedEvent } from '../store/EventLog.js';

/** What a detached run is: its API's own object, looked up by kind so that one API never sees the other's. */
export type DetachedKind = 'run' | 'response';

/** How a detached run's events ended: on their own (perhaps after a failure), or interrupted with a reason. */
export interface DetachedRunEnd {
  readonly reason?: InterruptReason;
  /** The sequence number the next event would have. */
  readonly nextSeq: number;
}

/** What an API hands the engine to run detached. */
export interface DetachedRunSpec<S> {
  readonly kind: DetachedKind;
  /** The run's events, as its log keeps them; called once the cap let it start. Apply `lifecycle.record` to the agent's events. */
  events$(lifecycle: Lifecycle): Observable<LoggedEvent>;
  /** Its API object as it stands, for `GET` while it runs. */
  snapshot(): S;
  /** Records how it ended, and returns the terminal events an interrupted run still owes its log. */
  onEnd(end: DetachedRunEnd): LoggedEvent[];
}

/** A run that belongs to no connection: it goes on whether or not anybody listens. */
export interface DetachedRun<S = unknown> {
  readonly id: string;
  readonly kind: DetachedKind;
  readonly cancellation: Cancellation;
  /** The events published from now on; completes when the run has ended and its log is written. */
  readonly live$: Observable<LoggedEvent>;
  snapshot(): S;
  /** Names the reason, unsubscribes the run (which interrupts the agent), and resolves once it ended. */
  stop(reason: InterruptReason): Promise<void>;
}

export interface DetachedRunsOptions {
  readonly activeRuns: ActiveRuns;
  readonly log: EventLog;
  readonly metrics: Metrics;
  /** More detached runs than this at once are refused (`CapacityError`, a 429). */
  readonly maxConcurrent: number;
  /** What each run's lifecycle caps its answer at; see `startLifecycle`. Default: `RXGATE_MAX_OUTPUT_CHARS`'s. */
  readonly maxOutputChars?: number;
}

/**
 * The engine under background responses and runs: the runs in flight, each logging every event
 * and publishing it to its live subscribers, capped at `maxConcurrent`, and registered with
 * `ActiveRuns` so that shutdown interrupts them.
 */
export class DetachedRuns {
  readonly #runs = new Map<string, DetachedRun>();

  constructor(private readonly options: DetachedRunsOptions) {}

  /** The run with this id, if it is in flight and of this kind. `S` is the snapshot type its API started it with. */
  get<S>(id: string, kind: DetachedKind): DetachedRun<S> | undefined {
    const run = this.#runs.get(id);
    return run?.kind === kind ? (run as DetachedRun<S>) : undefined;
  }

  /** Throws `CapacityError` when the cap is reached; else starts `spec` now, detached from any connection. */
  start<S>(id: string, spec: DetachedRunSpec<S>): DetachedRun<S> {
    const { activeRuns, log, metrics, maxConcurrent, maxOutputChars } = this.options;
    if (this.#runs.size >= maxConcurrent) throw new CapacityError(this.#runs.size, maxConcurrent);
    const lifecycle = startLifecycle({ metrics, inFlight: metrics.inFlightRuns, activeRuns, maxOutputChars });
    const { cancellation } = lifecycle;
    const live$ = new Subject<LoggedEvent>();
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
      for (const event of spec.onEnd({ reason, nextSeq })) publish(event);
      log.flush();
      this.#runs.delete(id);
      live$.complete();
      lifecycle.finish();
    };
    let stoppedAt: number | undefined;
    cancellation.onInterrupted(() => {
      if (stoppedAt !== undefined) metrics.disconnectToInterrupt.observe((performance.now() - stoppedAt) / 1000);
    });
    const ended = new Promise<void>((resolve) => live$.subscribe({ complete: resolve }));
    const run: DetachedRun<S> = {
      id,
      kind: spec.kind,
      cancellation,
      live$: live$.asObservable(),
      snapshot: spec.snapshot,
      stop: (reason) => {
        stoppedAt ??= performance.now();
        cancellation.cancelWith(reason);
        subscription.unsubscribe();
        end(cancellation.reason);
        return ended;
      },
    };
    this.#runs.set(id, run);
    // Shutdown names its reason on the cancellation before it signals.
    lifecycle.stop$.subscribe(() => void run.stop(cancellation.reason));
    subscription.add(spec.events$(lifecycle).subscribe({ next: publish, complete: () => end(), error: () => end() }));
    return run;
  }
}
