import type { Response } from 'express';
import { merge, tap, type Observable } from 'rxjs';
import type { Cancellation } from '../agent/cancellation.js';
import type { Metrics } from '../metrics/createMetrics.js';
import { clientClose$ } from '../pipeline/clientClose.js';
import { localsOf } from './requestContext.js';
import { outcomeOfInterrupt } from '../pipeline/streamOutcome.js';

/**
 * Emits when a response must end before its run does: the client left, or the server asked
 * (`stop$`: a stop request, shutdown). Notes the outcome and reason for the log, and times how
 * long the run then takes to be interrupted.
 */
export function responseEnd$(res: Response, stop$: Observable<void>, cancellation: Cancellation, metrics: Metrics): Observable<unknown> {
  const locals = localsOf(res);
  let endedAt: number | undefined;
  cancellation.onInterrupted(() => {
    if (endedAt !== undefined) metrics.disconnectToInterrupt.observe((performance.now() - endedAt) / 1000);
  });
  return merge(clientClose$(res), stop$).pipe(
    tap(() => {
      endedAt = performance.now();
      locals.outcome = outcomeOfInterrupt(cancellation.reason);
      locals.interruptReason = cancellation.reason;
    }),
  );
}
