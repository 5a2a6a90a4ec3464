import { asyncScheduler, Observable, type MonoTypeOperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import { serializeComment } from './serializeFrame.js';

export const KEEPALIVE_FRAME = serializeComment('keepalive');

/**
 * Emits a comment frame whenever `ms` pass without a frame, counting from subscription (so a
 * model that thinks before its first token keeps the connection alive), and stops with the stream.
 *
 * A frame only records its time: the one pending timer, when it fires early because frames came
 * meanwhile, waits out the rest of the interval instead of being re-armed on every frame. One
 * subscriber and one scheduled action per stream (it is held by every open stream for its life).
 *
 * ```
 * keepalive(3)
 * source:   -a------------|
 * result:   -a--k--k--k--k|
 * ```
 */
export function keepalive(ms: number, scheduler: SchedulerLike = asyncScheduler): MonoTypeOperatorFunction<string> {
  return (frames$) =>
    new Observable<string>((subscriber) => {
      let lastFrameAt = scheduler.now();
      let timer: Subscription | undefined;
      // Sends a keepalive if the interval has passed since the last frame, then waits out what is left of the next one.
      const check = () => {
        if (lastFrameAt + ms - scheduler.now() <= 0) {
          lastFrameAt = scheduler.now();
          subscriber.next(KEEPALIVE_FRAME);
        }
        if (subscriber.closed) return;
        timer = scheduler.schedule(check, Math.max(0, lastFrameAt + ms - scheduler.now()));
      };
      check();
      const subscription = frames$.subscribe({
        next: (frame) => {
          lastFrameAt = scheduler.now();
          subscriber.next(frame);
        },
        error: (error: unknown) => {
          timer?.unsubscribe();
          subscriber.error(error);
        },
        complete: () => {
          timer?.unsubscribe();
          subscriber.complete();
        },
      });
      return () => {
        timer?.unsubscribe();
        subscription.unsubscribe();
      };
    });
}
