import { defer, filter, fromEvent, map, NEVER, of, take, type Observable } from 'rxjs';
import type { ServerResponse } from 'node:http';

/**
 * Emits once when the client goes away before the response ended: `res` emits `'close'` while
 * `writableEnded` is false. (`req` `'close'` fires as soon as a POST body was read, with the
 * client still there.) Checked at subscription too, so a subscriber that arrives after an
 * `await` still sees a close that already happened.
 */
export function clientClose$(res: ServerResponse): Observable<void> {
  return defer(() => {
    if (res.closed || res.destroyed) return res.writableEnded ? NEVER : of(undefined);
    return fromEvent(res, 'close').pipe(
      filter(() => !res.writableEnded),
      take(1),
      map(() => undefined),
    );
  });
}
