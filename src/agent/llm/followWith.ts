import { from, Observable, type MonoTypeOperatorFunction, type ObservableInput } from 'rxjs';

/**
 * When the source completes, continues with what `next$` returns, called then (so it can read
 * what the source's values left behind): `concatWith(defer(next))` in one subscriber, where
 * `concat` held three for every model call's life.
 *
 * ```
 * followWith(() => y$)
 * source:   -a-b-|
 * y$:            -c-|
 * result:   -a-b--c-|
 * ```
 *
 * @example
 * turn$.pipe(followWith(() => (end ? afterTurn(end) : EMPTY)));
 */
export function followWith<T>(next$: () => ObservableInput<T>): MonoTypeOperatorFunction<T> {
  return (source$) =>
    new Observable<T>((subscriber) => {
      // Subscribed with the outer subscriber itself: its unsubscription tears the continuation down.
      const continueWith = () => from(next$()).subscribe(subscriber);
      return source$.subscribe({
        next: (value) => subscriber.next(value),
        error: (error: unknown) => subscriber.error(error),
        complete: continueWith,
      });
    });
}
