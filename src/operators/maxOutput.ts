import { Observable, type MonoTypeOperatorFunction, type Subscriber } from 'rxjs';
import type { AgentEvent, AgentEventOf } from '../agent/agentEvent.js';
import type { Cancellation } from '../agent/cancellation.js';
import { InterruptReason } from '../agent/interruptReason.js';
import { Stage } from '../rx/Stage.js';

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

/** Caps one answer, for its life. One subscriber, where map, takeWhile, filter and concat held five. */
class OutputCap extends Stage<AgentEvent> {
  private written = 0;
  private reached = false;

  constructor(
    destination: Subscriber<AgentEvent>,
    private readonly maxChars: number,
    private readonly cancellation: Cancellation,
    private readonly includeReasoning: boolean,
  ) {
    super(destination);
  }

  // A source that crossed the limit while it was being subscribed to is ended now.
  protected override onSubscribed(): void {
    if (this.reached) this.endAtLimit();
  }

  protected onNext(event: AgentEvent): void {
    if (this.reached) return;
    if (!this.counts(event)) {
      this.destination.next(event);
      return;
    }
    const chars = codePoints(event.delta);
    if (this.written + chars <= this.maxChars) {
      this.written += chars;
      this.destination.next(event);
      return;
    }
    this.reached = true;
    this.cancellation.cancelWith(InterruptReason.outputLimitReached);
    const kept = [...event.delta].slice(0, this.maxChars - this.written).join('');
    this.written = this.maxChars;
    if (kept !== '') this.destination.next({ ...event, delta: kept });
    this.endAtLimit();
  }

  protected override onError(error: unknown): void {
    if (!this.reached) this.destination.error(error);
  }

  protected override onComplete(): void {
    if (!this.reached) this.destination.complete();
  }

  private counts(event: AgentEvent): event is Counted {
    return event.type === 'text' || (this.includeReasoning && event.type === 'reasoning');
  }

  // The run is unsubscribed (and so interrupted) before the length finish goes out.
  private endAtLimit(): void {
    if (!this.subscribed) return;
    this.unsubscribe();
    this.destination.next(LENGTH);
    this.destination.complete();
  }
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
  return (events$) =>
    new Observable<AgentEvent>((destination) => new OutputCap(destination, maxChars, cancellation, includeReasoning).subscribeTo(events$));
}
