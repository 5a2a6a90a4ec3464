/** Who a request acts for: an API key's id, and whether that key may see and control everything. */
export interface Principal {
  readonly id: string;
  readonly admin: boolean;
}

/** The owner of what was stored before keys existed, and of everything on a server without keys. */
export const DEFAULT_OWNER = 'default';

/** The principal of a server without keys, and of `RXGATE_API_KEY` (one admin key named `default`). */
export const DEFAULT_PRINCIPAL: Principal = { id: DEFAULT_OWNER, admin: true };

/**
 * Whether `principal` may see an item that `owner` made (no owner: made before keys, `default`'s).
 * When it may not, callers answer exactly as for an id that does not exist: a 403 would tell that it does.
 */
export const mayAccess = (principal: Principal, owner: string | undefined): boolean =>
  principal.admin || (owner ?? DEFAULT_OWNER) === principal.id;
