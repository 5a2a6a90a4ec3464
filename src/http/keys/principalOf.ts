import type { Principal } from '../../principal.js';
import type { KnownKeys } from './resolveKey.js';

/** The principal of the key named `id` among `keys`, or undefined when no such key is in force (revoked, or expired at `now`). */
export function principalOf(keys: KnownKeys, id: string, now = Date.now()): Principal | undefined {
  for (const { principal, expiresAt } of keys.values()) if (principal.id === id && now < expiresAt) return principal;
  return undefined;
}
