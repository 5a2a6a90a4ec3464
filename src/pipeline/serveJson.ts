import type { Response } from 'express';
import { takeUntil, type Observable } from 'rxjs';
import { InterruptedError } from '../errors/InterruptedError.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics/createMetrics.js';
import type { Lifecycle } from './lifecycle.js';
import { responseEnd$ } from './responseEnd.js';
import { sendError } from './sendError.js';
import { outcomeOfInterrupt, type Served } from './served.js';

export interface ServeJsonOptions {
  readonly lifecycle: Lifecycle;
  readonly metrics: Metrics;
  readonly logger: Logger;
}

/**
 * Answers with the one value `answer$` comes to, as JSON; a failure is the HTTP error it maps to.
 * A client that leaves while it waits interrupts the run exactly as a streaming client would; a
 * run the server ended (stop, shutdown) is a 503 that names the reason. Resolves, once answered,
 * to how it went.
 */
export function serveJson(res: Response, answer$: Observable<unknown>, { lifecycle, metrics, logger }: ServeJsonOptions): Promise<Served> {
  const { cancellation } = lifecycle;
  let served: Served | undefined;
  return new Promise<Served>((resolve) => {
    answer$.pipe(takeUntil(responseEnd$(res, lifecycle, metrics))).subscribe({
      next: (answer) => {
        served = { outcome: 'completed', usage: lifecycle.usage };
        res.json(answer);
      },
      error: (error: unknown) => {
        logger.warn({ err: error }, 'run failed');
        sendError(res, error);
        resolve({ outcome: 'error', usage: lifecycle.usage });
      },
      complete: () => {
        if (served) return resolve(served);
        const reason = cancellation.reason;
        const outcome = outcomeOfInterrupt(reason);
        if (!res.destroyed) sendError(res, new InterruptedError(reason, outcome));
        resolve({ outcome, interruptReason: reason, usage: lifecycle.usage });
      },
    });
  });
}
