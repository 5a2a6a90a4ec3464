import { createHash, timingSafeEqual } from 'node:crypto';
import { InvalidApiKeyError } from '../../errors/InvalidApiKeyError.js';
import type { Principal } from '../../principal.js';
import type { KeyEntry } from './keysFile.js';

/** A key as rxgate holds it: its digest, and the principal it stands for until it expires. */
export interface KnownKey {
  readonly digest: Buffer;
  readonly principal: Principal;
  /** Epoch ms; `Infinity` when it does not expire. */
  readonly expiresAt: number;
}

/** Known keys by the hex SHA-256 of the key. */
export type KnownKeys = ReadonlyMap<string, KnownKey>;

const BEARER = /^Bearer (\S+)$/i;

export const sha256 = (key: string): Buffer => createHash('sha256').update(key).digest();

/** Indexes the keys file's entries by digest, each with the principal it makes. */
export function indexKeys(entries: readonly KeyEntry[]): KnownKeys {
  return new Map(
    entries.map(({ id, sha256: hex, expiresAt, admin = false, models, rpm, maxStreams, budget }) => [
      hex,
      {
        digest: Buffer.from(hex, 'hex'),
        principal: { id, admin, policy: { models, rpm, maxStreams, budget } },
        expiresAt: expiresAt === undefined ? Number.POSITIVE_INFINITY : Date.parse(expiresAt),
      },
    ]),
  );
}

/**
 * The principal of an `Authorization` header's bearer key, or the one `InvalidApiKeyError` for a
 * missing, malformed, unknown or expired key. One hash and a Map get find the candidate; the
 * digests are then compared in constant time, so that the lookup is not the only comparison.
 */
export function resolveKey(keys: KnownKeys, authorization: string | undefined, now = Date.now()): Principal {
  const presented = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
  if (presented !== undefined) {
    const digest = sha256(presented);
    const known = keys.get(digest.toString('hex'));
    if (known && timingSafeEqual(digest, known.digest) && now < known.expiresAt) return known.principal;
  }
  throw new InvalidApiKeyError();
}
