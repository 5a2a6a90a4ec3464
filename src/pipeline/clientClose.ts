import { Observable } from 'rxjs';
import type { ServerResponse } from 'node:http';
import { onClientClose } from './onClientClose.js';

/**
 * Emits once when the client goes away before the response ended (see `onClientClose`), also
 * to a subscriber that arrives after an `await`, when the close already happened.
 */
export function clientClose$(res: ServerResponse): Observable<void> {
  return new Observable<void>((subscriber) =>
    onClientClose(res, () => {
      subscriber.next();
      subscriber.complete();
    }),
  );
}
