import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { RequestError } from '../errors/RequestError.js';

const VISIBLE_ASCII = /^[\x21-\x7e]{1,255}$/;

/** The request's `Idempotency-Key` (1 to 255 visible ASCII characters), undefined without one; anything else is a 400 naming the header. */
export function readIdempotencyKey(req: Request): string | undefined {
  const key = req.get('idempotency-key');
  if (key === undefined) return undefined;
  if (!VISIBLE_ASCII.test(key)) {
    throw new RequestError(
      400,
      'the Idempotency-Key header must be 1 to 255 visible ASCII characters',
      'invalid_request_error',
      'Idempotency-Key',
      'invalid_idempotency_key',
    );
  }
  return key;
}

/** JSON with every object's keys sorted: two bodies that differ only in key order are the same request. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([key, item]) => [key, canonical(item)]),
        )
      : value;

/** What makes two requests under one `Idempotency-Key` the same request: method, path and canonical body. */
export const fingerprintOf = (req: Request): string =>
  createHash('sha256')
    .update(JSON.stringify([req.method, req.baseUrl + req.path, canonical(req.body)]))
    .digest('hex');

/** 422 `idempotency_key_mismatch`: the key was first used for another request. */
export const idempotencyKeyMismatch = (): RequestError =>
  new RequestError(
    422,
    'this Idempotency-Key was first used with a different request (method, path or body); use a new key for a new request',
    'invalid_request_error',
    'Idempotency-Key',
    'idempotency_key_mismatch',
  );

/** 409 `idempotency_key_in_use`: the first request under the key has no answer to replay, `why`; a retry may. */
export const idempotencyKeyInUse = (why: string): RequestError =>
  new RequestError(
    409,
    `the first request with this Idempotency-Key ${why}; retry`,
    'invalid_request_error',
    'Idempotency-Key',
    'idempotency_key_in_use',
  );
