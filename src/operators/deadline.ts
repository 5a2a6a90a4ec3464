import {
  asyncScheduler,
  connect,
  endWith,
  filter,
  identity,
  ignoreElements,
  map,
  merge,
  mergeMap,
  take,
  takeUntil,
  throwError,
  timer,
  type MonoTypeOperatorFunction,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { Cancellation } from '../agent/cancellation.js';
import { InterruptReason } from '../agent/interruptReason.js';
import { DeadlineError } from '../errors/DeadlineError.js';

export interface DeadlineOptions {
  /** Milliseconds a run may take from subscription to its end. Default: no limit. */
  readonly totalMs?: number;
  /** Milliseconds a run may take from subscription to its first text delta. Default: no limit. */
  readonly firstTokenMs?: number;
  /** The request's cancellation; told `Deadline exceeded` before the run is stopped. Required. */
  readonly cancellation: Cancellation;
  /** The clock. Default: `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

function checkMs(name: string, ms: number | undefined): void {
  if (ms !== undefined && !(Number.isFinite(ms) && ms >= 0)) {
    throw new RangeError(`rxgate: deadline ${name} must be a number of milliseconds, 0 or more; got ${ms}`);
  }
}

/**
 * Fails a run that is still going `totalMs` after subscription, or that has sent no text
 * `firstTokenMs` after it, with a `DeadlineError` (code `deadline_exceeded` or
 * `first_token_timeout`; the client gets an error frame with that code). The cancellation is told
 * `Deadline exceeded` first, so the run is interrupted with that reason. A limit reached in the
 * same frame as the run's end wins. The timers stop with the stream.
 *
 * ```
 * deadline({ totalMs: 5 })
 * source:     -a-b-------|
 * sourceSubs: ^----!
 * result:     -a-b-#            # = DeadlineError('deadline_exceeded'); reason 'Deadline exceeded'
 * ```
 *
 * @example
 * run$.pipe(deadline({ totalMs: 120_000, firstTokenMs: 30_000, cancellation }));
 */
export function deadline({
  totalMs,
  firstTokenMs,
  cancellation,
  scheduler = asyncScheduler,
}: DeadlineOptions): MonoTypeOperatorFunction<AgentEvent> {
  checkMs('totalMs', totalMs);
  checkMs('firstTokenMs', firstTokenMs);
  if (totalMs === undefined && firstTokenMs === undefined) return identity;
  return connect((events$) => {
    const firstText$ = events$.pipe(
      filter((event) => event.type === 'text' && event.delta !== ''),
      take(1),
    );
    const ended$ = events$.pipe(ignoreElements(), endWith(null));
    const limits: Observable<DeadlineError>[] = [];
    if (totalMs !== undefined) {
      limits.push(timer(totalMs, scheduler).pipe(map(() => new DeadlineError('deadline_exceeded', totalMs))));
    }
    if (firstTokenMs !== undefined) {
      limits.push(
        timer(firstTokenMs, scheduler).pipe(
          map(() => new DeadlineError('first_token_timeout', firstTokenMs)),
          takeUntil(firstText$),
        ),
      );
    }
    const expired$ = merge(...limits).pipe(
      take(1),
      mergeMap((error) => {
        cancellation.cancelWith(InterruptReason.deadlineExceeded);
        return throwError(() => error);
      }),
      takeUntil(ended$),
    );
    return merge(events$, expired$);
  });
}
