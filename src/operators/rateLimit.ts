import {
  asyncScheduler,
  concatMap,
  defer,
  dematerialize,
  from,
  map,
  materialize,
  of,
  timer,
  type MonoTypeOperatorFunction,
  type Observable,
  type ObservableNotification,
  type SchedulerLike,
} from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';

export interface RateLimitOptions {
  /** Characters (Unicode code points) of text per second, sustained; more than 0. Required. */
  readonly charsPerSecond: number;
  /** Characters that may go out at once, and the largest piece a long delta is split into; a whole number, 1 or more. Required. */
  readonly burst: number;
  /** The clock. Default: `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

// The bucket is kept in thousandths of a character, so that it refills by `charsPerSecond` each ms.
const MILLI = 1000;

/**
 * Paces text to `charsPerSecond` with bursts of up to `burst` characters (a token bucket that
 * starts full), by delaying deltas, never dropping them: a delta longer than `burst` goes out in
 * pieces of `burst`. The first delta is not delayed. Every other event, an error and completion
 * wait behind the text before them, so nothing is reordered. Unsubscribing while text is held back
 * unsubscribes the source at once and cancels the pending timer.
 *
 * ```
 * rateLimit({ charsPerSecond: 1000, burst: 2 })     1 char per ms; x = "abcd", y = "ab", z = "cd"
 * source:   xt----|
 * result:   y-(zt)|        z waits 2 ms for the bucket to refill; t waits behind it
 * ```
 *
 * @example
 * run$.pipe(rateLimit({ charsPerSecond: 200, burst: 40 }));
 */
export function rateLimit({ charsPerSecond, burst, scheduler = asyncScheduler }: RateLimitOptions): MonoTypeOperatorFunction<AgentEvent> {
  if (!(Number.isFinite(charsPerSecond) && charsPerSecond > 0)) {
    throw new RangeError(`rxgate: rateLimit charsPerSecond must be a number above 0; got ${charsPerSecond}`);
  }
  if (!(Number.isInteger(burst) && burst >= 1)) {
    throw new RangeError(`rxgate: rateLimit burst must be a whole number of characters, 1 or more; got ${burst}`);
  }
  return (events$) =>
    defer(() => {
      const capacity = burst * MILLI;
      let level = capacity;
      let filledAt = scheduler.now();
      const refill = () => {
        const now = scheduler.now();
        level = Math.min(capacity, level + (now - filledAt) * charsPerSecond);
        filledAt = now;
      };
      /** One piece of text, released once the bucket holds enough for it. */
      function release(chars: readonly string[]): Observable<ObservableNotification<AgentEvent>> {
        return defer(() => {
          refill();
          const wait = Math.ceil((chars.length * MILLI - level) / charsPerSecond);
          return wait > 0 ? timer(wait, scheduler) : of(0);
        }).pipe(
          map(() => {
            refill();
            level -= chars.length * MILLI;
            return { kind: 'N', value: { type: 'text', delta: chars.join('') } };
          }),
        );
      }
      const pieces = (delta: string): string[][] => {
        const chars = [...delta];
        const result: string[][] = [];
        for (let start = 0; start < chars.length; start += burst) result.push(chars.slice(start, start + burst));
        return result;
      };
      return events$.pipe(
        materialize(),
        concatMap((notification) =>
          notification.kind === 'N' && notification.value.type === 'text' && notification.value.delta !== ''
            ? from(pieces(notification.value.delta)).pipe(concatMap(release))
            : of(notification),
        ),
        dematerialize(),
      );
    });
}
