import { mayAccess, type Principal } from '../principal.js';
import type { RunsContext } from './runsContext.js';
import { runNotFound } from './runNotFound.js';

/**
 * Refuses run `id` to a principal that may not see it with the very 404 of a run that does not
 * exist, after the same one store read: whether the id is another key's must not show.
 */
export async function assertRunOwner(context: RunsContext, id: string, principal: Principal): Promise<void> {
  // An admin may see every run: no read to make, and a missing one is answered by what follows (a run
  // in flight here stays readable while the store is down).
  if (principal.admin) return;
  const owner = await context.store.runs.owner(id);
  if (owner === undefined || !mayAccess(principal, owner)) throw runNotFound(id);
}
