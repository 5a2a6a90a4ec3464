import { DEFAULT_OWNER } from '../../principal.js';
import { indexKeys, sha256, type KnownKeys } from './resolveKey.js';

/** `RXGATE_API_KEY` as a key like the keys file's: one admin key named `default`, without limits. */
export const apiKeyAsKeys = (apiKey: string): KnownKeys =>
  indexKeys([{ id: DEFAULT_OWNER, sha256: sha256(apiKey).toString('hex'), admin: true }]);
