import { UnavailableResponseError } from '../errors/UnavailableResponseError.js';
import { mayAccess, type Principal } from '../principal.js';
import type { Store } from '../store/Store.js';

/**
 * Refuses response `id` (the `previous_response_id` of a new one, when `chainOf` is given) to a
 * principal that may not see it with the very 404 of a response that does not exist, after the
 * same one store read: whether the id is another key's must not show.
 */
export async function assertResponseOwner(store: Store, id: string, principal: Principal, chainOf?: string): Promise<void> {
  // An admin may see every response: no read to make, and a missing one is answered by what follows.
  if (principal.admin) return;
  const owner = await store.responses.owner(id);
  if (owner === undefined || !mayAccess(principal, owner)) throw new UnavailableResponseError(id, undefined, chainOf);
}
