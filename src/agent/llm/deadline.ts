import { asyncScheduler, endWith, map, merge, takeWhile, timer, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';

const END = Symbol('end');

/**
 * Fails with `createError()` if the source has not completed `ms` after subscription; the
 * source is unsubscribed first, so whatever it is doing stops.
 *
 * ```
 * deadline(5)
 * source:   -a-b-c-d-|        -a-b--
 * result:   -a-b-#            -a-b-#     (at frame 5)
 * ```
 */
export function deadline<T>(ms: number, createError: () => Error, scheduler: SchedulerLike = asyncScheduler): MonoTypeOperatorFunction<T> {
  return (source$) =>
    merge(
      source$.pipe(endWith(END)),
      timer(ms, scheduler).pipe(
        map((): typeof END => {
          throw createError();
        }),
      ),
    ).pipe(takeWhile((value): value is T => value !== END));
}
