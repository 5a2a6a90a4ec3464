import { asyncScheduler, Observable, type MonoTypeOperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';

/**
 * Fails with `createError()` if the source has sent no value `ms` after subscription (the source
 * is unsubscribed with it); the first value cancels the timer, and everything passes through
 * untouched. With `counts`, only a value it accepts cancels the timer (the others pass too: no
 * filter stage of its own). One subscriber and, until the first value, one scheduled action per model call,
 * where `timeout` held a subscriber, its own timer bookkeeping and an Observable for the error.
 *
 * ```
 * firstValueTimeout(3)
 * source:   -a----b-|        ------
 * result:   -a----b-|        ---#
 * ```
 */
export function firstValueTimeout<T>(
  ms: number,
  createError: () => Error,
  scheduler: SchedulerLike = asyncScheduler,
  counts: (value: T) => boolean = () => true,
): MonoTypeOperatorFunction<T> {
  return (source$) =>
    new Observable<T>((subscriber) => {
      let timer: Subscription | undefined = undefined;
      let seen = false;
      const subscription = source$.subscribe({
        next: (value) => {
          if (!seen && counts(value)) {
            seen = true;
            // Let go of it too: the action and its closure would otherwise live as long as the call.
            timer?.unsubscribe();
            timer = undefined;
          }
          subscriber.next(value);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      if (!seen && !subscriber.closed) timer = scheduler.schedule(() => subscriber.error(createError()), ms);
      return () => {
        timer?.unsubscribe();
        subscription.unsubscribe();
      };
    });
}
