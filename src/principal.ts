import type { Budget } from './budget.js';

/** Who a request acts for: an API key's id, and whether that key may see and control everything. */
export interface Principal {
  readonly id: string;
  readonly admin: boolean;
  /** What the key may do (`RXGATE_KEYS_FILE`); none: no limits beyond the server's own. */
  readonly policy?: KeyPolicy;
}

/** A key's limits, as its entry in the keys file gives them; an absent field does not limit. */
export interface KeyPolicy {
  /** The model names the key may ask for (and `GET /v1/models` lists). */
  readonly models?: readonly string[];
  /** Requests per minute. */
  readonly rpm?: number;
  /** Streams and detached runs in flight at once. */
  readonly maxStreams?: number;
  /** What the key's model calls may cost in a period. */
  readonly budget?: Budget;
}

/** The owner of what was stored before keys existed, and of everything on a server without keys. */
export const DEFAULT_OWNER = 'default';

/** The principal of a server without keys, and of `RXGATE_API_KEY` (one admin key named `default`). */
export const DEFAULT_PRINCIPAL: Principal = { id: DEFAULT_OWNER, admin: true };

/** Whether `principal`'s key may ask for `model` (a key without a `models` list may ask for any). */
export const mayUseModel = (principal: Principal, model: string): boolean => principal.policy?.models?.includes(model) ?? true;

/**
 * Whether `principal` may see an item that `owner` made (no owner: made before keys, `default`'s).
 * When it may not, callers answer exactly as for an id that does not exist: a 403 would tell that it does.
 */
export const mayAccess = (principal: Principal, owner: string | undefined): boolean =>
  principal.admin || (owner ?? DEFAULT_OWNER) === principal.id;
