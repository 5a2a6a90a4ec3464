import { from, Observable, type ObservableInput, type OperatorFunction } from 'rxjs';
import type { AgentEvent, Usage } from '../agentEvent.js';
import type { TurnEnd, TurnEvent } from './toTurnEvents.js';

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
  return (events$) =>
    new Observable<AgentEvent>((subscriber) => {
      let end: TurnEnd | undefined;
      // Subscribed with the outer subscriber itself: its unsubscription tears the continuation down.
      const continueWith = () => {
        if (end) from(next$(end)).subscribe(subscriber);
        else subscriber.complete();
      };
      return events$.subscribe({
        next: (event) => {
          if (event.type === 'turn_end') {
            end = event;
            return;
          }
          if (event.type === 'usage') onUsage(event.usage);
          subscriber.next(event);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: continueWith,
      });
    });
}
