import { Observable, type MonoTypeOperatorFunction, type Subscription } from 'rxjs';
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
    new Observable<AgentEvent>((subscriber) => {
      let written = 0;
      let reached = false;
      // Assigned once subscribe returns: a source that crosses the limit synchronously is ended after that.
      let run: Subscription | undefined = undefined;
      // The run is unsubscribed (and so interrupted) before the length finish goes out. One
      // subscriber, where map, takeWhile, filter and concat held five for every answer's life.
      const endAtLimit = () => {
        if (!run) return;
        run.unsubscribe();
        subscriber.next(LENGTH);
        subscriber.complete();
      };
      run = events$.subscribe({
        next: (event) => {
          if (reached) return;
          if (!counts(event)) {
            subscriber.next(event);
            return;
          }
          const chars = codePoints(event.delta);
          if (written + chars <= maxChars) {
            written += chars;
            subscriber.next(event);
            return;
          }
          reached = true;
          cancellation.cancelWith(InterruptReason.outputLimitReached);
          const kept = [...event.delta].slice(0, maxChars - written).join('');
          written = maxChars;
          if (kept !== '') subscriber.next({ ...event, delta: kept });
          endAtLimit();
        },
        error: (error: unknown) => {
          if (!reached) subscriber.error(error);
        },
        complete: () => {
          if (!reached) subscriber.complete();
        },
      });
      if (reached && !subscriber.closed) endAtLimit();
      return run;
    });
}
