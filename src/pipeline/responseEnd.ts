import type { Response } from 'express';
import { Observable } from 'rxjs';
import { InterruptReason } from '../agent/interruptReason.js';
import type { Metrics } from '../metrics/createMetrics.js';
import { onClientClose } from './onClientClose.js';
import type { Lifecycle } from './lifecycle.js';

/**
 * Emits when a response must end before its run does: the client left (the reason named is
 * `SSE client disconnected`), or the server ended it (`stop$`: a stop request, shutdown, which
 * named their reason first), telling `onEnd` first. Times how long the run then takes to be interrupted. One subscriber
 * and one `'close'` listener, held by every open stream for its life (a merge and its taps cost a dozen closures).
 */
export function responseEnd$(res: Response, { cancellation, stop$ }: Lifecycle, metrics: Metrics, onEnd?: () => void): Observable<void> {
  let endedAt: number | undefined;
  cancellation.onInterrupted(() => {
    if (endedAt !== undefined) metrics.disconnectToInterrupt.observe((performance.now() - endedAt) / 1000);
  });
  return new Observable<void>((subscriber) => {
    const end = () => {
      endedAt = performance.now();
      onEnd?.();
      subscriber.next();
    };
    const stopListening = onClientClose(res, () => {
      cancellation.cancelWith(InterruptReason.clientDisconnected);
      end();
    });
    const stopped = stop$.subscribe(end);
    return () => {
      stopListening();
      stopped.unsubscribe();
    };
  });
}
