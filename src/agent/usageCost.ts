import type { Usage } from './agentEvent.js';

/** A usage's cost on the wire, in OpenRouter's shape, as every API reports it. */
export interface UsageCost {
  /** USD: only when a model call had a price. */
  readonly cost?: number;
  /** Only when a call's tokens were counted by rxgate, its upstream having reported no usage. */
  readonly cost_details?: { readonly estimated: true };
}

const NO_COST: UsageCost = {};
const ESTIMATED = { estimated: true } as const;

/** `usage`'s cost fields, to spread into an API's usage object: none when no call had a price. */
export function usageCost({ costUsd, costEstimated }: Usage): UsageCost {
  if (costUsd === undefined) return NO_COST;
  return costEstimated ? { cost: costUsd, cost_details: ESTIMATED } : { cost: costUsd };
}
