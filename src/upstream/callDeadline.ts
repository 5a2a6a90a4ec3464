import { asyncScheduler, Observable, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';

/**
 * An upstream call's total time (`RXGATE_UPSTREAM_TIMEOUT_MS`, opt-in): fails with `createError()` if the source has not completed `ms` after subscription; the
 * source is unsubscribed with it, so whatever it is doing stops. One subscriber and one scheduled
 * action per run (it is held by every open stream for its life).
 *
 * ```
 * callDeadline(5)
 * source:   -a-b-c-d-|        -a-b--
 * result:   -a-b-#            -a-b-#     (at frame 5)
 * ```
 */
export function callDeadline<T>(
  ms: number,
  createError: () => Error,
  scheduler: SchedulerLike = asyncScheduler,
): MonoTypeOperatorFunction<T> {
  return (source$) =>
    new Observable<T>((subscriber) => {
      const subscription = source$.subscribe(subscriber);
      if (subscriber.closed) return subscription;
      const timer = scheduler.schedule(() => subscriber.error(createError()), ms);
      return () => {
        timer.unsubscribe();
        subscription.unsubscribe();
      };
    });
}
