import type { RequestHandler } from 'express';
import { localsOf } from '../serving/requestLocals.js';
import { resolveKey, type KnownKeys } from './keys/resolveKey.js';

/**
 * Requires `Authorization: Bearer <key>` with a key of `keys()` (read per request, so that a
 * reloaded keys file holds from the next request on), and makes its principal the request's.
 */
export function authenticate(keys: () => KnownKeys): RequestHandler {
  return (req, res, next) => {
    localsOf(res).principal = resolveKey(keys(), req.get('authorization'));
    next();
  };
}
