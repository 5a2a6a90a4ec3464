import { mayAccess, type Principal } from '../principal.js';
import type { RunsContext } from './runsContext.js';
import { runNotFound } from './runNotFound.js';

/**
 * Refuses run `id` to a principal that may not see it with the very 404 of a run that does not
 * exist, after the same one store read: whether the id is another key's must not show.
 */
export async function assertRunOwner(context: RunsContext, id: string, principal: Principal): Promise<void> {
  const owner = await context.store.runs.owner(id);
  if (owner === undefined || !mayAccess(principal, owner)) throw runNotFound(id);
}
