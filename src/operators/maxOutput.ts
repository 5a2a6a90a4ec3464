import { concat, defer, EMPTY, filter, map, of, takeWhile, type MonoTypeOperatorFunction } from 'rxjs';
import type { AgentEvent, AgentEventOf } from '../agent/agentEvent.js';
import type { Cancellation } from '../agent/cancellation.js';
import { InterruptReason } from '../agent/interruptReason.js';

export interface MaxOutputOptions {
  /** Characters (Unicode code points) of text one answer may have; a whole number, 0 or more. Required. */
  readonly maxChars: number;
  /** The request's cancellation; told `Output limit reached` before the run is cut. Required. */
  readonly cancellation: Cancellation;
  /** Count reasoning deltas too, and cut them the same way. Default: false, only the answer's text counts. */
  readonly includeReasoning?: boolean;
}

type Counted = AgentEventOf<'text'> | AgentEventOf<'reasoning'>;

const LENGTH: AgentEvent = { type: 'finish', reason: 'length' };

/** `[...text].length` without the array: a surrogate pair is one character. */
function codePoints(text: string): number {
  let count = text.length;
  for (let i = 1; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xdc00 && unit <= 0xdfff && (text.charCodeAt(i - 1) & 0xfc00) === 0xd800) count--;
  }
  return count;
}

/**
 * Caps the text of one answer at `maxChars` characters: the delta that would cross the limit is
 * truncated, a `finish` with reason `length` follows, and the stream completes, which unsubscribes
 * (and so interrupts) the run with reason `Output limit reached`. An answer that only reaches the
 * limit is not cut. Other events pass untouched and do not count (reasoning does with
 * `includeReasoning`).
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
export function maxOutput({ maxChars, cancellation, includeReasoning = false }: MaxOutputOptions): MonoTypeOperatorFunction<AgentEvent> {
  if (!Number.isInteger(maxChars) || maxChars < 0) {
    throw new RangeError(`rxgate: maxOutput maxChars must be a whole number of characters, 0 or more; got ${maxChars}`);
  }
  const counts = (event: AgentEvent): event is Counted => event.type === 'text' || (includeReasoning && event.type === 'reasoning');
  return (events$) =>
    defer(() => {
      let written = 0;
      let reached = false;
      // One event makes at most one event: map, no inner Observable per delta (this runs on every answer).
      const capped$ = events$.pipe(
        map((event): AgentEvent | undefined => {
          if (!counts(event)) return event;
          const chars = codePoints(event.delta);
          if (written + chars <= maxChars) {
            written += chars;
            return event;
          }
          reached = true;
          cancellation.cancelWith(InterruptReason.outputLimitReached);
          const kept = [...event.delta].slice(0, maxChars - written).join('');
          written = maxChars;
          return kept === '' ? undefined : { ...event, delta: kept };
        }),
        // Inclusive: the truncated delta goes out, then the run is unsubscribed at once.
        takeWhile(() => !reached, true),
        filter((event) => event !== undefined),
      );
      return concat(
        capped$,
        defer(() => (reached ? of(LENGTH) : EMPTY)),
      );
    });
}
