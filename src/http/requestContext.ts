import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { Logger } from '../logger.js';
import type { StreamOutcome } from './streamOutcome.js';

/** What rxgate keeps on `res.locals` for one request. */
export interface RequestLocals {
  requestId: string;
  logger: Logger;
  outcome?: StreamOutcome;
  interruptReason?: string;
}

export const localsOf = (res: Response): RequestLocals => res.locals as RequestLocals;

const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;

/**
 * Gives each request an id (the client's `X-Request-Id` when it is sane, else a new UUID), echoes
 * it, binds a child logger to it, and writes one access-log line when the response is over.
 */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const offered = req.get('x-request-id');
    const requestId = offered && ACCEPTABLE_ID.test(offered) ? offered : randomUUID();
    const started = performance.now();
    const locals = localsOf(res);
    locals.requestId = requestId;
    locals.logger = logger.child({ requestId });
    res.setHeader('X-Request-Id', requestId);
    res.once('close', () => {
      locals.logger.info(
        {
          method: req.method,
          path: req.path,
          status: res.statusCode,
          durationMs: Math.round((performance.now() - started) * 1000) / 1000,
          outcome: locals.outcome,
          interruptReason: locals.interruptReason,
        },
        'request',
      );
    });
    next();
  };
}
