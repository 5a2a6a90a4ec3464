import { concatMap, takeUntil, type Observable, type OperatorFunction } from 'rxjs';

/**
 * Answers a connection's client events one at a time, in order of arrival (an event that comes
 * while one is answered waits), and ends, the answer in flight unsubscribed, in the frame that
 * `closed$` emits: a closed socket interrupts its run there.
 *
 * ```
 * events:   -a-b--------
 * answer a:  --x|
 * answer b:     --y---
 * closed$:  ---------c
 * result:   ---x--y--|     b's answer is unsubscribed at c
 * ```
 *
 * @example
 * messages$.pipe(answerInOrder((event) => connection.answer(event), closed$)).subscribe();
 */
export function answerInOrder<E, R>(answer$: (event: E) => Observable<R>, closed$: Observable<unknown>): OperatorFunction<E, R> {
  return (events$) => events$.pipe(concatMap(answer$), takeUntil(closed$));
}
