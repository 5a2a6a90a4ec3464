import { Observable } from 'rxjs';
import type { ServerResponse } from 'node:http';

/**
 * Calls `left` once if the client goes away before the response ended: `res` emits `'close'`
 * while `writableEnded` is false. (`req` `'close'` fires as soon as a POST body was read, with the
 * client still there.) Checked at once too, so a caller that arrives after an `await` still hears
 * of a close that already happened. Returns what removes the listener.
 */
export function onClientClose(res: ServerResponse, left: () => void): () => void {
  if (res.closed || res.destroyed) {
    if (!res.writableEnded) left();
    return () => undefined;
  }
  const onClose = () => {
    if (!res.writableEnded) left();
  };
  // `on`, not `once`: 'close' comes once anyway, and `once` wraps the listener in a bound function and its state.
  res.on('close', onClose);
  return () => res.off('close', onClose);
}

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
