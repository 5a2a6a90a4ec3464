import {
  asyncScheduler,
  defer,
  dematerialize,
  materialize,
  mergeMap,
  of,
  switchMap,
  timer,
  type MonoTypeOperatorFunction,
  type ObservableNotification,
  type SchedulerLike,
} from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';

export interface CoalesceOptions {
  /** Milliseconds a window stays open after the text delta that opened it; 0 or more. Required. */
  readonly windowMs: number;
  /** Characters (Unicode code points) at which a window is flushed early; 1 or more. Default: no limit. */
  readonly maxChars?: number;
  /** The clock. Default: `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/**
 * Merges adjacent text deltas into one: the first delta opens a window, and what arrives within
 * `windowMs` (or until the window holds `maxChars` characters) goes out as one delta when it closes.
 * Any other event, an error and completion flush the window first, so nothing is reordered or
 * lost; a window with no characters emits nothing.
 *
 * ```
 * coalesce({ windowMs: 3 })         x = "ab"
 * source:   -a-bt----c-----|
 * result:   ----(xt)----c--|       t flushes the window early; c waits out its own
 * ```
 *
 * @example
 * run$.pipe(coalesce({ windowMs: 50, maxChars: 512 }));
 */
export function coalesce({
  windowMs,
  maxChars = Infinity,
  scheduler = asyncScheduler,
}: CoalesceOptions): MonoTypeOperatorFunction<AgentEvent> {
  if (!(Number.isFinite(windowMs) && windowMs >= 0)) {
    throw new RangeError(`rxgate: coalesce windowMs must be a number of milliseconds, 0 or more; got ${windowMs}`);
  }
  if (!(maxChars >= 1)) {
    throw new RangeError(`rxgate: coalesce maxChars must be 1 or more; got ${maxChars}`);
  }
  return (events$) =>
    defer(() => {
      let held = '';
      let heldChars = 0;
      let closesAt: number | undefined;
      const flush = (): ObservableNotification<AgentEvent>[] => {
        const delta = held;
        held = '';
        heldChars = 0;
        closesAt = undefined;
        return delta === '' ? [] : [{ kind: 'N', value: { type: 'text', delta } }];
      };
      return events$.pipe(
        materialize(),
        // Each notification replaces the previous one's window timer with its own.
        switchMap((notification) => {
          if (notification.kind !== 'N' || notification.value.type !== 'text') return of(...flush(), notification);
          closesAt ??= scheduler.now() + windowMs;
          held += notification.value.delta;
          heldChars += [...notification.value.delta].length;
          if (heldChars >= maxChars) return of(...flush());
          return timer(closesAt - scheduler.now(), scheduler).pipe(mergeMap(flush));
        }),
        dematerialize(),
      );
    });
}
