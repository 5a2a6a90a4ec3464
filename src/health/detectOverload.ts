import {
  asyncScheduler,
  distinctUntilChanged,
  map,
  of,
  switchMap,
  timer,
  type Observable,
  type OperatorFunction,
  type SchedulerLike,
} from 'rxjs';

/**
 * Turns event-loop delay samples (ms) into whether the process is overloaded: `true` as soon as a
 * sample is over `maxDelayMs`, `false` again once the samples have stayed at or under it for
 * `holdMs` (so that one quiet sample between two bursts does not let a flood back in). Emits
 * changes only.
 *
 * ```
 * detectOverload(50, 3)
 * source:  -a-b-c-d-e------|     a = 10, b = 80, c = 10, d = 90, e = 10
 * result:  ---t--------f---|     t = true at b; c is followed by d within 3; f = false 3 after e
 * ```
 */
export function detectOverload(
  maxDelayMs: number,
  holdMs: number,
  scheduler: SchedulerLike = asyncScheduler,
): OperatorFunction<number, boolean> {
  return (delays$: Observable<number>) =>
    delays$.pipe(
      map((delayMs) => delayMs > maxDelayMs),
      distinctUntilChanged(),
      switchMap((over) => (over ? of(true) : timer(holdMs, scheduler).pipe(map(() => false)))),
      distinctUntilChanged(),
    );
}
