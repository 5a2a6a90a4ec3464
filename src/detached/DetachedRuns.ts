import { concat, defer, ignoreElements, Subscription, type Observable } from 'rxjs';
import type { Cancellation } from '../agent/cancellation.js';
import { InterruptReason } from '../agent/interruptReason.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics/createMetrics.js';
import type { ActiveRuns } from '../serving/activeRuns.js';
import { startLifecycle, type Lifecycle } from '../serving/lifecycle.js';
import type { Coordinator } from '../store/Coordinator.js';
import type { LoggedEvent } from '../store/EventLog.js';
import type { Store } from '../store/Store.js';
import type { RunInputs } from './RunInputs.js';

/** What a detached run is: its API's own object, looked up by kind so that one API never sees the other's. */
export type DetachedKind = 'run' | 'response';

/** How a detached run's events ended: on their own, failed (`error`), or interrupted with a reason (and the error behind it, if any). */
export interface DetachedRunEnd {
  readonly reason?: InterruptReason;
  readonly error?: unknown;
  /** The sequence number the next event would have. */
  readonly nextSeq: number;
}

/** What an API hands the engine to run detached. */
export interface DetachedRunSpec<S> {
  readonly kind: DetachedKind;
  /** The key id (principal id) it belongs to, which its tokens are counted for. */
  readonly owner: string;
  /** Stores its API object as it starts; its events begin once that is stored (a run the store cannot keep costs nothing). */
  saveStart(): Promise<void>;
  /** The run's events, as its log keeps them; called once its start is stored. Apply `lifecycle.record` to the agent's events. */
  events$(lifecycle: Lifecycle): Observable<LoggedEvent>;
  /** Its API object as it stands, for `GET` while it runs. */
  snapshot(): S;
  /** Settles its API object, and returns the terminal events an interrupted or failed run still owes its log. */
  onEnd(end: DetachedRunEnd): LoggedEvent[];
  /** Stores its API object as it ended, once its log is written. */
  saveFinal(): Promise<void>;
  /** Where people's inputs to it go (approvals, steers), from this instance or through the coordinator. Default: it takes none. */
  readonly inputs?: RunInputs;
}

/** A run that belongs to no connection: it goes on whether or not anybody listens. */
export interface DetachedRun<S = unknown> {
  readonly id: string;
  readonly kind: DetachedKind;
  readonly cancellation: Cancellation;
  /**
   * Settles once its start is stored, so that any instance sharing the store finds the run it was
   * told of; rejects with the store's error, and the run then ends `failed`.
   */
  readonly started: Promise<void>;
  /** Resolves once the run has ended, its last events are stored and its object saved (or the store failed to). */
  readonly ended: Promise<void>;
  /** Where people's inputs to it go, if it takes any. */
  readonly inputs?: RunInputs;
  snapshot(): S;
  /** Names the reason, unsubscribes the run (which interrupts the agent), and resolves once it ended. */
  stop(reason: InterruptReason): Promise<void>;
}

export interface DetachedRunsOptions {
  readonly activeRuns: ActiveRuns;
  readonly store: Store;
  readonly metrics: Metrics;
  /** Told what the store failed to do; the run it belonged to has ended `failed` where it could. */
  readonly logger: Logger;
  /** Holds the cap (`CapacityError`, a 429, past it) and brings stop requests and inputs from any instance. */
  readonly coordinator: Coordinator;
  /** What each run's lifecycle caps its answer at; see `startLifecycle`. Default: `RXGATE_MAX_OUTPUT_CHARS`'s. */
  readonly maxOutputChars?: number;
}

/** Ended runs kept in memory because the store refused their final state; past it the oldest is forgotten. */
const MAX_UNSAVED = 1_000;

/**
 * The engine under background responses and runs: the runs in flight, each appending every event
 * to its log (where followers read it, once stored), capped at `maxConcurrent`, and registered
 * with `ActiveRuns` so that shutdown interrupts them. A log that cannot be written interrupts the
 * run with `Store write failed`; no store failure escapes a run.
 */
export class DetachedRuns {
  readonly #runs = new Map<string, DetachedRun>();
  /** Ended runs whose final state the store refused: shown from here, and saved again each time another run ends. */
  readonly #unsaved = new Map<string, { readonly run: DetachedRun; readonly save: () => Promise<void> }>();

  constructor(private readonly options: DetachedRunsOptions) {
    options.coordinator.stops$.subscribe((id) => void this.#runs.get(id)?.stop(InterruptReason.stopRequested));
    options.coordinator.takenOver$.subscribe((id) => void this.#runs.get(id)?.stop(InterruptReason.takenOver));
    options.coordinator.inputs$.subscribe(({ id, input, acknowledge }) => {
      const run = this.#runs.get(id);
      if (run?.inputs?.deliver(input)) acknowledge(true);
      // Only a run that is ending (or gone) refuses a steer: its sender is told once it has ended, and answers from its final state.
      else void (run?.ended ?? Promise.resolve()).then(() => acknowledge(false));
    });
  }

  /** Who runs what across the instances sharing the store. */
  get coordinator(): Coordinator {
    return this.options.coordinator;
  }

  /** The run with this id, if it is in flight and of this kind. `S` is the snapshot type its API started it with. */
  get<S>(id: string, kind: DetachedKind): DetachedRun<S> | undefined {
    const run = this.#runs.get(id);
    return run?.kind === kind ? (run as DetachedRun<S>) : undefined;
  }

  /** The API object of the run with this id and kind as this process knows it: in flight, or ended but not yet stored. */
  snapshot<S>(id: string, kind: DetachedKind): S | undefined {
    const run = this.#runs.get(id) ?? this.#unsaved.get(id)?.run;
    return run?.kind === kind ? (run.snapshot() as S) : undefined;
  }

  #keepUnsaved(run: DetachedRun, save: () => Promise<void>): void {
    if (this.#unsaved.size >= MAX_UNSAVED) this.#unsaved.delete(this.#unsaved.keys().next().value!);
    this.#unsaved.set(run.id, { run, save });
  }

  #retryUnsaved(): void {
    for (const [id, { save }] of this.#unsaved) {
      save().then(
        () => this.#unsaved.delete(id),
        () => undefined,
      );
    }
  }

  /** Rejects with `CapacityError` when the cap is reached (a `StoreError` when the store cannot say); else starts `spec`, detached from any connection. */
  async start<S>(id: string, spec: DetachedRunSpec<S>): Promise<DetachedRun<S>> {
    const { activeRuns, store, metrics, logger, coordinator, maxOutputChars } = this.options;
    await coordinator.acquire(id);
    const lifecycle = startLifecycle({
      metrics,
      inFlight: metrics.inFlightRuns,
      activeRuns,
      maxOutputChars,
      key: spec.owner,
    });
    const { cancellation } = lifecycle;
    let nextSeq = 0;
    let over = false;
    // The last append: the log keeps appends in order, so once it settles every earlier one has.
    let appended: Promise<void> = Promise.resolve();
    const subscription = new Subscription();
    let resolveEnded!: () => void;
    const ended = new Promise<void>((resolve) => (resolveEnded = resolve));
    const reportStoreFailure = (error: unknown) => logger.error({ err: error, id }, 'the store failed; the run ends without it');

    // The first append the store failed, even after the run's own end: a run whose events were lost did not complete.
    let lostEvents: unknown;
    const append = (event: LoggedEvent) => {
      nextSeq = event.seq + 1;
      const batch = store.events.append(id, [event]);
      if (batch === appended) return;
      // A log that batches its writes hands every event of a batch the same promise: one handler a batch, not one an event.
      appended = batch;
      batch.catch((error: unknown) => {
        lostEvents ??= error;
        if (over) return;
        reportStoreFailure(error);
        interrupt(InterruptReason.storeFailed, error);
      });
    };
    let released: Promise<void> | undefined;
    const release = () => (released ??= coordinator.release(id).catch(reportStoreFailure));
    const end = async (reason?: InterruptReason, error?: unknown) => {
      if (over) return;
      over = true;
      // From here on nothing takes an input: one sent while the end is stored is refused as sent to an ended run.
      spec.inputs?.close();
      try {
        // The run's events settle first (in order, so with the last): an answer that ended while the store was
        // failing to keep its events ends failed with the store's error, not completed.
        await appended.catch(() => undefined);
        if (lostEvents !== undefined && reason === undefined && error === undefined) {
          reportStoreFailure(lostEvents);
          [reason, error] = [InterruptReason.storeFailed, lostEvents];
        }
        for (const event of spec.onEnd({ reason, error, nextSeq })) append(event);
        await appended.catch(reportStoreFailure);
        const saved = await spec.saveFinal().then(
          () => true,
          (storeError: unknown) => {
            reportStoreFailure(storeError);
            return false;
          },
        );
        // The slot and any stop request go once the final state is stored: an instance that asked for the stop answers from it.
        await release();
        if (!saved) this.#keepUnsaved(run, spec.saveFinal);
        else {
          this.#retryUnsaved();
          await store.enforceRetention().catch(reportStoreFailure);
        }
      } finally {
        await release();
        this.#runs.delete(id);
        lifecycle.finish();
        resolveEnded();
      }
    };
    const interrupt = (reason: InterruptReason, error?: unknown) => {
      cancellation.cancelWith(reason);
      subscription.unsubscribe();
      void end(cancellation.reason, error);
    };
    let stoppedAt: number | undefined;
    cancellation.onInterrupted(() => {
      if (stoppedAt !== undefined) metrics.disconnectToInterrupt.observe((performance.now() - stoppedAt) / 1000);
    });
    let started: Promise<void> = Promise.resolve();
    const run: DetachedRun<S> = {
      id,
      kind: spec.kind,
      cancellation,
      get started() {
        return started;
      },
      ended,
      ...(spec.inputs ? { inputs: spec.inputs } : {}),
      snapshot: spec.snapshot,
      stop: (reason) => {
        stoppedAt ??= performance.now();
        interrupt(reason);
        return ended;
      },
    };
    this.#runs.set(id, run);
    // Shutdown names its reason on the cancellation before it signals.
    lifecycle.stop$.subscribe(() => void run.stop(cancellation.reason));
    const events$ = concat(
      defer(() => {
        started = spec.saveStart();
        // Its failure ends the run `failed` through the events' error; whoever awaits `started` also learns of it.
        started.catch(() => undefined);
        return started;
      }).pipe(ignoreElements()),
      defer(() => spec.events$(lifecycle)),
    );
    subscription.add(
      events$.subscribe({ next: append, complete: () => void end(), error: (error: unknown) => void end(undefined, error) }),
    );
    return run;
  }
}
