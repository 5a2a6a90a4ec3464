import { concatMap, defer, of, takeWhile, type MonoTypeOperatorFunction } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { Cancellation } from '../agent/cancellation.js';
import { InterruptReason } from '../agent/interruptReason.js';

export interface MaxOutputOptions {
  /** Characters (Unicode code points) of text one answer may have; a whole number, 0 or more. Required. */
  readonly maxChars: number;
  /** The request's cancellation; told `Output limit reached` before the run is cut. Required. */
  readonly cancellation: Cancellation;
}

/**
 * Caps the text of one answer at `maxChars` characters: the delta that would cross the limit is
 * truncated, a `finish` with reason `length` follows, and the stream completes, which unsubscribes
 * (and so interrupts) the run with reason `Output limit reached`. An answer that only reaches the
 * limit is not cut. Other events pass untouched and do not count.
 *
 * ```
 * maxOutput({ maxChars: 3 })       a = "ab", b = "cd", c = "c", L = finish length
 * source:     -a-b-f-|
 * sourceSubs: ^--!
 * result:     -a-(cL|)
 * ```
 *
 * @example
 * run$.pipe(maxOutput({ maxChars: 4000, cancellation }));
 */
export function maxOutput({ maxChars, cancellation }: MaxOutputOptions): MonoTypeOperatorFunction<AgentEvent> {
  if (!Number.isInteger(maxChars) || maxChars < 0) {
    throw new RangeError(`rxgate: maxOutput maxChars must be a whole number of characters, 0 or more; got ${maxChars}`);
  }
  return (events$) =>
    defer(() => {
      // Our own finish, recognised by identity: an upstream `length` finish is not a cut.
      const cut: AgentEvent = { type: 'finish', reason: 'length' };
      let written = 0;
      return events$.pipe(
        concatMap((event) => {
          if (event.type !== 'text') return of(event);
          const chars = [...event.delta];
          if (written + chars.length <= maxChars) {
            written += chars.length;
            return of(event);
          }
          const kept = chars.slice(0, maxChars - written).join('');
          written = maxChars;
          cancellation.cancelWith(InterruptReason.outputLimitReached);
          return kept === '' ? of(cut) : of({ type: 'text', delta: kept } as const, cut);
        }),
        takeWhile((event) => event !== cut, true),
      );
    });
}
