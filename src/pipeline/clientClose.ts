import { Observable } from 'rxjs';
import type { ServerResponse } from 'node:http';

/**
 * Emits once when the client goes away before the response ended: `res` emits `'close'` while
 * `writableEnded` is false. (`req` `'close'` fires as soon as a POST body was read, with the
 * client still there.) Checked at subscription too, so a subscriber that arrives after an
 * `await` still sees a close that already happened. One listener and one subscriber, held by
 * every open stream for its life.
 */
export function clientClose$(res: ServerResponse): Observable<void> {
  return new Observable<void>((subscriber) => {
    const left = () => {
      subscriber.next();
      subscriber.complete();
    };
    if (res.closed || res.destroyed) {
      if (!res.writableEnded) left();
      return;
    }
    const onClose = () => {
      if (!res.writableEnded) left();
    };
    res.once('close', onClose);
    return () => res.off('close', onClose);
  });
}
