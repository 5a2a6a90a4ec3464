import type { Response } from 'express';
import { merge, tap, type Observable } from 'rxjs';
import { InterruptReason } from '../agent/interruptReason.js';
import type { Metrics } from '../metrics/createMetrics.js';
import { clientClose$ } from './clientClose.js';
import type { Lifecycle } from './lifecycle.js';

/**
 * Emits when a response must end before its run does: the client left (the reason named is
 * `SSE client disconnected`), or the server ended it (`stop$`: a stop request, shutdown, which
 * named their reason first). Times how long the run then takes to be interrupted.
 */
export function responseEnd$(res: Response, { cancellation, stop$ }: Lifecycle, metrics: Metrics): Observable<unknown> {
  let endedAt: number | undefined;
  cancellation.onInterrupted(() => {
    if (endedAt !== undefined) metrics.disconnectToInterrupt.observe((performance.now() - endedAt) / 1000);
  });
  const left$ = clientClose$(res).pipe(tap(() => cancellation.cancelWith(InterruptReason.clientDisconnected)));
  return merge(left$, stop$).pipe(tap(() => (endedAt = performance.now())));
}
