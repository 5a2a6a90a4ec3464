import type { Response } from 'express';
import { takeUntil, type Observable } from 'rxjs';
import { InterruptedError } from '../errors/InterruptedError.js';
import { toOpenAIError } from '../errors/toOpenAIError.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics/createMetrics.js';
import { sendJsonAnswer, type JsonAnswer } from './jsonAnswer.js';
import type { Lifecycle } from './lifecycle.js';
import { responseEnd$ } from './responseEnd.js';
import { sendError } from './sendError.js';
import { outcomeOfInterrupt, type Served } from './served.js';
import { usdText } from '../money/usd.js';

export interface ServeJsonOptions {
  readonly lifecycle: Lifecycle;
  readonly metrics: Metrics;
  readonly logger: Logger;
  /**
   * Told the run's own answer (its value, or the HTTP error its failure maps to) before it is
   * sent, which waits until this settles: an `Idempotency-Key`'s first answer is kept before the
   * client can retry. Never told of an answer cut short (the client left, the server stopped the run).
   */
  readonly beforeAnswer?: (answer: JsonAnswer) => Promise<void>;
}

/**
 * Answers with the one value `answer$` comes to, as JSON, with `x-rxgate-cost` (USD) when a model
 * call of the run had a price; a failure is the HTTP error it maps to.
 * A client that leaves while it waits interrupts the run exactly as a streaming client would; a
 * run the server ended (stop, shutdown) is a 503 that names the reason. Resolves, once answered,
 * to how it went.
 */
export function serveJson(
  res: Response,
  answer$: Observable<unknown>,
  { lifecycle, metrics, logger, beforeAnswer }: ServeJsonOptions,
): Promise<Served> {
  const { cancellation } = lifecycle;
  let answered: Promise<Served> | undefined;
  const reply = async (answer: JsonAnswer, served: Served): Promise<Served> => {
    await beforeAnswer?.(answer).catch((error: unknown) => logger.error({ err: error }, 'the answer could not be kept'));
    // A client that left while the answer was being kept is not written to.
    if (!res.destroyed) sendJsonAnswer(res, answer);
    return served;
  };
  return new Promise<Served>((resolve) => {
    answer$.pipe(takeUntil(responseEnd$(res, lifecycle, metrics))).subscribe({
      next: (body) => {
        const { usage } = lifecycle;
        const served: Served = { outcome: 'completed', usage };
        const cost = usage?.costUsd;
        const answer: JsonAnswer = { status: 200, ...(cost === undefined ? {} : { headers: { 'x-rxgate-cost': usdText(cost) } }), body };
        if (beforeAnswer) answered = reply(answer, served);
        else {
          answered = Promise.resolve(served);
          sendJsonAnswer(res, answer);
        }
      },
      error: (error: unknown) => {
        logger.warn({ err: error }, 'run failed');
        const served: Served = { outcome: 'error', usage: lifecycle.usage };
        if (beforeAnswer) return resolve(reply(toOpenAIError(error), served));
        sendError(res, error);
        resolve(served);
      },
      complete: () => {
        if (answered) return resolve(answered);
        const reason = cancellation.reason;
        const outcome = outcomeOfInterrupt(reason);
        if (!res.destroyed) sendError(res, new InterruptedError(reason, outcome));
        resolve({ outcome, interruptReason: reason, usage: lifecycle.usage });
      },
    });
  });
}
