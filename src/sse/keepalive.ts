import {
  asyncScheduler,
  connect,
  endWith,
  ignoreElements,
  interval,
  map,
  merge,
  startWith,
  switchMap,
  takeUntil,
  type MonoTypeOperatorFunction,
  type SchedulerLike,
} from 'rxjs';
import { serializeComment } from './serializeFrame.js';

export const KEEPALIVE_FRAME = serializeComment('keepalive');

/**
 * Emits a comment frame whenever `ms` pass without a frame, counting from subscription (so a
 * model that thinks before its first token keeps the connection alive), and stops with the stream.
 *
 * ```
 * keepalive(3)
 * source:   -a------------|
 * result:   -a--k--k--k--k|
 * ```
 */
export function keepalive(ms: number, scheduler: SchedulerLike = asyncScheduler): MonoTypeOperatorFunction<string> {
  return connect((frames$) => {
    const idle$ = frames$.pipe(
      startWith(null),
      switchMap(() => interval(ms, scheduler)),
      map(() => KEEPALIVE_FRAME),
    );
    const ended$ = frames$.pipe(ignoreElements(), endWith(null));
    return merge(frames$, idle$.pipe(takeUntil(ended$)));
  });
}
