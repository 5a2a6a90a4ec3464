import type { RequestHandler } from 'express';
import { RequestError } from '../errors/RequestError.js';
import type { Overload } from '../health/overload.js';

/**
 * Answers 503 `overloaded` with `Retry-After` while the process is overloaded, before the
 * request costs anything more (auth, its body, a run): what is already running goes on, and a
 * client or balancer retries later or elsewhere.
 */
export function shedWhenOverloaded(overload: Overload): RequestHandler {
  return (_req, res, next) => {
    if (!overload.overloaded) return next();
    const seconds = overload.retryAfterSeconds;
    res.setHeader('Retry-After', String(seconds));
    next(
      new RequestError(
        503,
        `rxgate is overloaded: its event loop is ${Math.round(overload.delayMs)} ms behind, over RXGATE_MAX_EVENT_LOOP_DELAY_MS (${overload.maxDelayMs} ms); retry in ${seconds} s or on another instance`,
        'server_error',
        null,
        'overloaded',
      ),
    );
  };
}
