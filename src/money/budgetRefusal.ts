import { BudgetExceededError } from '../errors/BudgetExceededError.js';
import type { Principal } from '../principal.js';
import type { BudgetLedger } from './BudgetLedger.js';
import { budgetWindow } from './budgetWindow.js';

/**
 * Why `principal` may start no work now, if its budget is spent (settled spend and holds in flight
 * reaching its limit): what a run or a job's fire is refused with before it starts. A call that
 * fits is still held on its own when it is made.
 */
export async function budgetRefusal(ledger: BudgetLedger, principal: Principal, nowMs: number): Promise<BudgetExceededError | undefined> {
  const budget = principal.policy?.budget;
  if (!budget) return undefined;
  const window = budgetWindow(budget, nowMs);
  const { spentUsd, heldUsd } = await ledger.standing(principal.id, window, nowMs);
  return spentUsd + heldUsd >= budget.usd
    ? new BudgetExceededError(principal.id, budget, spentUsd, heldUsd, window.resetsAtMs, nowMs)
    : undefined;
}
