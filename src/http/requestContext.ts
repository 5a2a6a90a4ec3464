import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../logger.js';
import type { RequestLocals } from '../serving/requestLocals.js';
import { DEFAULT_PRINCIPAL, type Principal } from '../principal.js';
import type { RunTrace } from '../tracing/RunTrace.js';

const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;

class Locals implements RequestLocals {
  readonly #root: Logger;
  #child: Logger | undefined;
  principal: Principal = DEFAULT_PRINCIPAL;
  trace: RunTrace | undefined = undefined;
  dialect: 'openai' | 'anthropic' = 'openai';

  constructor(
    readonly requestId: string,
    root: Logger,
    readonly startedAt: number,
  ) {
    this.#root = root;
  }

  // Made when first used (a run that fails, the access log line), not for every request up front;
  // a silent logger's child would say nothing either, so it needs none.
  get logger(): Logger {
    if (!this.#root.isLevelEnabled('fatal')) return this.#root;
    return (this.#child ??= this.#root.child({ requestId: this.requestId }));
  }
}

/**
 * Gives each request an id (the client's `X-Request-Id` when it is sane, else a new UUID), echoes
 * it, and binds a child logger to it (made lazily, on first use).
 */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const offered = req.get('x-request-id');
    const requestId = offered && ACCEPTABLE_ID.test(offered) ? offered : randomUUID();
    // An instance in place of Express's own `res.locals` (a null-prototype object, a dictionary): three
    // fields and a getter on the prototype, not a per-request accessor, for every open stream's life.
    res.locals = new Locals(requestId, logger, performance.now());
    res.setHeader('X-Request-Id', requestId);
    next();
  };
}
