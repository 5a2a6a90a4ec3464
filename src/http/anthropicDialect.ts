import type { RequestHandler } from 'express';
import { localsOf } from '../serving/requestLocals.js';

const MESSAGES_PATH = /^\/v1\/messages(?:[/?]|$)/;

/**
 * Speaks Anthropic's dialect to a request of the Messages API, or one that carries
 * `anthropic-version` (Claude Code listing models): its errors, from authentication on, in
 * Anthropic's envelope, and its id also as `request-id`, which Claude Code records per turn.
 */
export function anthropicDialect(): RequestHandler {
  return (req, res, next) => {
    if (MESSAGES_PATH.test(req.url) || req.headers['anthropic-version'] !== undefined) {
      const locals = localsOf(res);
      locals.dialect = 'anthropic';
      res.setHeader('request-id', locals.requestId);
    }
    next();
  };
}
