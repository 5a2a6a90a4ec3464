import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../logger.js';
import { localsOf } from '../pipeline/requestLocals.js';

const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;

/**
 * Gives each request an id (the client's `X-Request-Id` when it is sane, else a new UUID), echoes
 * it, and binds a child logger to it (made lazily, on first use).
 */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const offered = req.get('x-request-id');
    const requestId = offered && ACCEPTABLE_ID.test(offered) ? offered : randomUUID();
    const locals = localsOf(res);
    locals.requestId = requestId;
    // Made when first used (a run that fails, the access log line), not for every request up front;
    // a silent logger's child would say nothing either, so it needs none.
    let child: Logger | undefined;
    Object.defineProperty(locals, 'logger', {
      get: () => (logger.isLevelEnabled('fatal') ? (child ??= logger.child({ requestId })) : logger),
      enumerable: true,
      configurable: true,
    });
    locals.startedAt = performance.now();
    res.setHeader('X-Request-Id', requestId);
    next();
  };
}
