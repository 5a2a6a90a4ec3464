import { UnavailableResponseError } from '../errors/UnavailableResponseError.js';
import { mayAccess, type Principal } from '../principal.js';
import type { Store } from '../store/Store.js';

/**
 * Refuses response `id` (the `previous_response_id` of a new one, when `chainOf` is given) to a
 * principal that may not see it with the very 404 of a response that does not exist, after the
 * same one store read: whether the id is another key's must not show.
 */
export async function assertResponseOwner(store: Store, id: string, principal: Principal, chainOf?: string): Promise<void> {
  if (!(await mayReadResponse(store, id, principal))) throw new UnavailableResponseError(id, undefined, chainOf);
}

/**
 * Whether `principal` may see response `id`: never one it may not, nor, unless an admin, one nothing
 * is known of. An admin may see every response: no read to make, and a missing one is answered by what follows.
 */
export async function mayReadResponse(store: Store, id: string, principal: Principal): Promise<boolean> {
  if (principal.admin) return true;
  const owner = await store.responses.owner(id);
  return owner !== undefined && mayAccess(principal, owner);
}
