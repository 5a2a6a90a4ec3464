import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../logger.js';
import { localsOf } from '../pipeline/requestLocals.js';

const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;

/**
 * Gives each request an id (the client's `X-Request-Id` when it is sane, else a new UUID), echoes
 * it, and binds a child logger to it.
 */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const offered = req.get('x-request-id');
    const requestId = offered && ACCEPTABLE_ID.test(offered) ? offered : randomUUID();
    const locals = localsOf(res);
    locals.requestId = requestId;
    locals.logger = logger.child({ requestId });
    locals.startedAt = performance.now();
    res.setHeader('X-Request-Id', requestId);
    next();
  };
}
