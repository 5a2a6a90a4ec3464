import { from, Observable, type ObservableInput, type OperatorFunction, type Subscriber } from 'rxjs';
import type { AgentEvent, Usage } from '../agentEvent.js';
import type { TurnEnd, TurnEvent } from './toTurnEvents.js';
import { Stage } from '../../rx/Stage.js';

/** The state of one `continueAfterTurn` subscription, for every model call. */
class TurnContinuation extends Stage<TurnEvent, AgentEvent> {
  private end: TurnEnd | undefined;

  constructor(
    destination: Subscriber<AgentEvent>,
    private readonly next$: (end: TurnEnd) => ObservableInput<AgentEvent>,
    private readonly onUsage: (usage: Usage) => void,
  ) {
    super(destination);
  }

  protected onNext(event: TurnEvent): void {
    if (event.type === 'turn_end') {
      this.end = event;
      return;
    }
    if (event.type === 'usage') this.onUsage(event.usage);
    this.destination.next(event);
  }

  // Subscribed with the outer subscriber itself: its unsubscription tears the continuation down.
  protected override onComplete(): void {
    if (this.end) from(this.next$(this.end)).subscribe(this.destination);
    else this.destination.complete();
  }
}

/**
 * Passes a model call's events on, except its `turn_end`, which it keeps: once the call completes,
 * it continues with what `next$` makes of that end (and completes when there was none). Tells
 * `onUsage` of each usage on the way. One subscriber for every model call's life, where a filter
 * and a concat held four.
 *
 * ```
 * source:       -t-u-(e|)      t = text, u = usage, e = turn_end
 * next$(e):          -f|
 * result:       -t-u--f|
 * ```
 *
 * @example
 * callModel(request).pipe(continueAfterTurn((end) => (end.toolCalls.length > 0 ? runTools(end) : of(finish))));
 */
export function continueAfterTurn(
  next$: (end: TurnEnd) => ObservableInput<AgentEvent>,
  onUsage: (usage: Usage) => void = () => undefined,
): OperatorFunction<TurnEvent, AgentEvent> {
  return (events$) => new Observable<AgentEvent>((destination) => new TurnContinuation(destination, next$, onUsage).subscribeTo(events$));
}
