import { RxgateError } from './RxgateError.js';

/** Why a stored response is gone: evicted by retention, or deleted. */
export type Tombstone = 'evicted' | 'deleted';

function describe(id: string, tombstone: Tombstone | undefined, chainOf: string | undefined): string {
  const subject =
    chainOf === undefined || chainOf === id
      ? `response '${id}'`
      : `response '${id}' (an ancestor of '${chainOf}' in its previous_response_id chain)`;
  if (tombstone === 'evicted') {
    return `${subject} was evicted from the store by the retention policy (RXGATE_RETENTION_MAX_ITEMS / RXGATE_RETENTION_MAX_AGE_DAYS); the conversation cannot be continued`;
  }
  if (tombstone === 'deleted') return `${subject} was deleted; the conversation cannot be continued`;
  return `${subject} not found`;
}

/**
 * A stored response (or a link of a `previous_response_id` chain, when `chainOf` names the
 * response the chain was walked from) that cannot be used, and why.
 */
export class UnavailableResponseError extends RxgateError {
  constructor(
    readonly id: string,
    readonly tombstone?: Tombstone,
    readonly chainOf?: string,
  ) {
    super(describe(id, tombstone, chainOf));
  }
}
