import { Observable, from, type ObservableInput, type Subscriber } from 'rxjs';
import type { AgentEvent } from './agentEvent.js';
import type { Cancellation } from './cancellation.js';
import type { InterruptReason } from './interruptReason.js';
import { silentLogger, type Logger } from '../logger.js';
import { RunAbort } from './RunAbort.js';
import { Stage } from '../rx/Stage.js';

/** One run of an agent: work that honours an `AbortSignal`, and optionally a way to interrupt it. */
export interface InterruptibleRun {
  readonly events: ObservableInput<AgentEvent>;
  /** Called at most once, and only for a run that had neither completed nor failed. */
  interrupt?(reason: InterruptReason): void;
}

export interface CreateRunOptions {
  /** Where a throwing `interrupt` is reported. Default: a silent logger. */
  readonly logger?: Logger;
}

/** Passes a run's events on and interrupts the run if it is unsubscribed before it settled, for every open stream. */
class RunEvents extends Stage<AgentEvent> {
  private settled = false;

  constructor(
    destination: Subscriber<AgentEvent>,
    private readonly cancellation: Cancellation,
    private readonly abort: RunAbort,
    private readonly run: InterruptibleRun,
    private readonly logger: Logger,
  ) {
    super(destination);
  }

  protected onNext(event: AgentEvent): void {
    this.destination.next(event);
  }

  protected override onError(error: unknown): void {
    this.settled = true;
    this.destination.error(error);
  }

  protected override onComplete(): void {
    this.settled = true;
    this.destination.complete();
  }

  override unsubscribe(): void {
    super.unsubscribe();
    if (this.settled) return;
    this.settled = true;
    const { cancellation, run } = this;
    const reason = cancellation.reason;
    this.abort.abort(reason);
    cancellation.notifyInterrupted();
    try {
      run.interrupt?.(reason);
    } catch (error) {
      // The run is over either way; a faulty interrupt must not take the response down with it.
      this.logger.warn({ err: error, reason }, 'agent interrupt threw; ignored');
    }
  }
}

/**
 * Turns interruptible work into the cold Observable every agent returns. Each subscription calls
 * `start` with a fresh `AbortSignal`; unsubscribing before the run settles aborts that signal
 * (so silent I/O stops too) and calls `interrupt` once with the cancellation's reason.
 *
 * ```
 * events:      --a--b------
 * subscriber:  ^-------!        client left at frame 8
 * interrupt:   --------x        once, with cancellation.reason
 * ```
 *
 * @example
 * run(request, cancellation) {
 *   return createRun(cancellation, (signal) => ({
 *     events: streamFromUpstream(request, signal),
 *     interrupt: (reason) => log.info({ reason }, 'interrupted'),
 *   }));
 * }
 */
export function createRun(
  cancellation: Cancellation,
  start: (signal: AbortSignal) => InterruptibleRun,
  options: CreateRunOptions = {},
): Observable<AgentEvent> {
  return createAbortableRun(cancellation, (abort) => start(abort.signal), options);
}

/**
 * `createRun` for work that needs no `AbortSignal` up front: `start` gets the run's `RunAbort`,
 * which makes one only when asked (`abort.signal`), so a run that never asks makes none.
 */
export function createAbortableRun(
  cancellation: Cancellation,
  start: (abort: RunAbort) => InterruptibleRun,
  { logger = silentLogger }: CreateRunOptions = {},
): Observable<AgentEvent> {
  return new Observable<AgentEvent>((destination) => {
    const abort = new RunAbort();
    const run = start(abort);
    return new RunEvents(destination, cancellation, abort, run, logger).subscribeTo(from(run.events));
  });
}
