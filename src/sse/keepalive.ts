import {
  asyncScheduler,
  connect,
  defer,
  EMPTY,
  endWith,
  ignoreElements,
  merge,
  of,
  repeat,
  takeUntil,
  tap,
  timer,
  type MonoTypeOperatorFunction,
  type SchedulerLike,
} from 'rxjs';
import { serializeComment } from './serializeFrame.js';

export const KEEPALIVE_FRAME = serializeComment('keepalive');

/**
 * Emits a comment frame whenever `ms` pass without a frame, counting from subscription (so a
 * model that thinks before its first token keeps the connection alive), and stops with the stream.
 *
 * A frame only records its time: the one pending timer, when it fires early because frames came
 * meanwhile, waits out the rest of the interval instead of being re-armed on every frame.
 *
 * ```
 * keepalive(3)
 * source:   -a------------|
 * result:   -a--k--k--k--k|
 * ```
 */
export function keepalive(ms: number, scheduler: SchedulerLike = asyncScheduler): MonoTypeOperatorFunction<string> {
  return connect((frames$) => {
    let lastFrameAt = scheduler.now();
    const dueIn = () => lastFrameAt + ms - scheduler.now();
    const idle$ = defer(() => {
      if (dueIn() > 0) return EMPTY;
      lastFrameAt = scheduler.now();
      return of(KEEPALIVE_FRAME);
    }).pipe(repeat({ delay: () => timer(Math.max(0, dueIn()), scheduler) }));
    const ended$ = frames$.pipe(ignoreElements(), endWith(null));
    return merge(frames$.pipe(tap(() => (lastFrameAt = scheduler.now()))), idle$.pipe(takeUntil(ended$)));
  });
}
