import type { Request, RequestHandler } from 'express';
import { localsOf } from '../serving/requestLocals.js';
import { resolveKey, type KnownKeys } from './keys/resolveKey.js';

/** The request's `Authorization` header; without one, its `x-api-key` (as Anthropic's clients send a key) as a bearer key. */
function authorizationOf(req: Request): string | undefined {
  const authorization = req.get('authorization');
  if (authorization !== undefined) return authorization;
  const apiKey = req.get('x-api-key');
  return apiKey === undefined ? undefined : `Bearer ${apiKey}`;
}

/**
 * Requires `Authorization: Bearer <key>` (or `x-api-key: <key>`) with a key of `keys()` (read per
 * request, so that a reloaded keys file holds from the next request on), and makes its principal the request's.
 */
export function authenticate(keys: () => KnownKeys): RequestHandler {
  return (req, res, next) => {
    localsOf(res).principal = resolveKey(keys(), authorizationOf(req));
    next();
  };
}
