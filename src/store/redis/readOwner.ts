import { DEFAULT_OWNER } from '../../principal.js';
import type { RedisClient } from './connectRedis.js';

// One script, so that an id of nobody, of somebody else and of the caller cost the same one round trip.
const OWNER = `
local owner = redis.call('GET', KEYS[1])
if owner then return owner end
if redis.call('EXISTS', KEYS[2], KEYS[3]) > 0 then return ARGV[1] end
return false`;

/**
 * The principal id kept at `principalKey`; `DEFAULT_OWNER` for an item stored before owners were
 * (one of `itemKeys` exists without it); undefined when nothing is known. The keys share a slot.
 */
export async function readOwner(
  redis: RedisClient,
  principalKey: string,
  itemKeys: readonly [string, string],
): Promise<string | undefined> {
  const owner = await redis.eval(OWNER, { keys: [principalKey, ...itemKeys], arguments: [DEFAULT_OWNER] });
  return typeof owner === 'string' ? owner : undefined;
}
