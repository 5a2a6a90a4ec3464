import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import { TERMINAL_RESPONSE_EVENTS, type ResponseObject, type ResponseStreamEvent } from '../openai/responseObject.js';

/**
 * Passes the events on, but the terminal one (and the completion after it) only once `save` has
 * stored its response: a client that continues the conversation the moment it reads
 * `response.completed` finds it stored, whatever the store. A failed save is `save`'s to report;
 * the answer is still sent.
 *
 * ```
 * source:  -a-T|        save(T) resolves at x
 * result:  -a---(T|)    (x)
 * ```
 */
export function savedBeforeSent(save: (response: ResponseObject) => Promise<void>): MonoTypeOperatorFunction<ResponseStreamEvent> {
  return (events$) =>
    new Observable<ResponseStreamEvent>((subscriber) => {
      let saving: Promise<void> | undefined;
      // Once a save is under way everything after it waits its turn, in order.
      const inTurn = (emit: () => void) => (saving ? void saving.then(() => !subscriber.closed && emit()) : emit());
      return events$.subscribe({
        next: (event) => {
          if (!saving && TERMINAL_RESPONSE_EVENTS.has(event.type)) saving = save(event.response as ResponseObject).catch(() => undefined);
          inTurn(() => subscriber.next(event));
        },
        error: (error: unknown) => inTurn(() => subscriber.error(error)),
        complete: () => inTurn(() => subscriber.complete()),
      });
    });
}
