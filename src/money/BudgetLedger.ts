import type { BudgetWindow } from './budgetWindow.js';

/** A reservation's request: `usd` held against `key`'s spend in `window`, which may reach `limitUsd`. */
export interface BudgetHoldRequest {
  readonly key: string;
  readonly window: BudgetWindow;
  readonly limitUsd: number;
  /** The call's worst case. */
  readonly usd: number;
  readonly nowMs: number;
  /** How long the hold counts if it is never settled (its instance died). */
  readonly leaseMs: number;
}

/** A key's spend in a window: what was settled, and what is held by calls in flight. */
export interface BudgetStanding {
  readonly spentUsd: number;
  readonly heldUsd: number;
}

/** What `hold` answers: the hold's id, or the standing that left no room for it. */
export type BudgetHold = { readonly held: true; readonly id: string } | ({ readonly held: false } & BudgetStanding);

/** A hold's settlement: its actual cost, added to the window of the instant it ends. */
export interface BudgetSettlement {
  readonly key: string;
  readonly id: string;
  readonly usd: number;
  readonly window: BudgetWindow;
}

/**
 * Spend per key against its budget, atomic across every instance sharing the store: a hold is
 * taken only while the settled spend, the live holds and it stay within the limit, all in one step.
 */
export interface BudgetLedger {
  hold(request: BudgetHoldRequest): Promise<BudgetHold>;
  /** Releases the hold and adds `usd` as spent (a hold that already lapsed adds its spend too); answers the window's spend after it. */
  settle(settlement: BudgetSettlement): Promise<number>;
  standing(key: string, window: BudgetWindow, nowMs: number): Promise<BudgetStanding>;
}
