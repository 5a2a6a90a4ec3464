import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { RequestError } from '../errors/RequestError.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Requires `Authorization: Bearer <apiKey>`. Both sides are hashed first, so the comparison takes
 * the same time whatever the length or content of the wrong key.
 */
export function authenticate(apiKey: string): RequestHandler {
  const expected = digest(apiKey);
  return (req, _res, next) => {
    const match = /^Bearer (.+)$/i.exec(req.get('authorization') ?? '');
    if (match && timingSafeEqual(digest(match[1]!), expected)) return next();
    next(
      new RequestError(
        401,
        'invalid or missing API key; send Authorization: Bearer <key>',
        'invalid_request_error',
        null,
        'invalid_api_key',
      ),
    );
  };
}
