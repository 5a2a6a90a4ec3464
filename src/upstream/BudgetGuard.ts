import type { Budget } from '../budget.js';
import type { BudgetWindow } from '../money/budgetWindow.js';
import type { BudgetHold, BudgetHoldRequest, BudgetSettlement } from '../money/BudgetLedger.js';
import type { ObservableInput } from 'rxjs';

/** The part of a `BudgetLedger` the model caller holds and settles with (a store's answers its promises). */
export interface BudgetHolds {
  hold(request: BudgetHoldRequest): ObservableInput<BudgetHold>;
  /** Answers the window's spend after the settlement. */
  settle(settlement: BudgetSettlement): ObservableInput<number>;
}

/** A hold as it settled: what it held, what the call cost, and the window's spend after it. */
export interface SettledHold {
  readonly key: string;
  readonly budget: Budget;
  readonly window: BudgetWindow;
  readonly heldUsd: number;
  readonly usd: number;
  readonly spentUsd: number;
}

/** How the model caller keeps each priced call of a key with a budget within it. */
export interface BudgetGuard {
  readonly holds: BudgetHolds;
  /** The output tokens a call that names no limit is held for (`RXGATE_BUDGET_RESERVE_OUTPUT_TOKENS`). */
  readonly reserveOutputTokens: number;
  /** How long a hold counts if its instance dies before it settles (`RXGATE_BUDGET_LEASE_MS`). */
  readonly leaseMs: number;
  /** Told of each settlement: the overage metric, the soft limit's warning, the used ratio. */
  readonly onSettled?: (settled: SettledHold) => void;
  /** Told when a settlement could not be written: its hold lapses after its lease. */
  readonly onSettleFailed?: (error: unknown, key: string) => void;
}
