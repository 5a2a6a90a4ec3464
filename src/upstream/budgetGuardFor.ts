import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics/createMetrics.js';
import type { BudgetLedger } from '../money/BudgetLedger.js';
import type { BudgetGuard } from './BudgetGuard.js';

export interface BudgetSettings {
  readonly reserveOutputTokens: number;
  readonly leaseMs: number;
}

/**
 * The guard that holds each budgeted call against `ledger`, telling what settles: an overage (a
 * call that cost more than it held) in `rxgate_budget_overage_usd_total` and a warning, the share
 * spent in `rxgate_key_budget_used_ratio`, and once a period a warning when `softUsd` is crossed.
 */
export function budgetGuardFor(
  ledger: BudgetLedger,
  { reserveOutputTokens, leaseMs }: BudgetSettings,
  logger: Logger,
  metrics?: Metrics,
): BudgetGuard {
  /** Each key's window start when its soft limit was last told: once a period. */
  const softTold = new Map<string, number>();
  return {
    holds: ledger,
    reserveOutputTokens,
    leaseMs,
    onSettled: ({ key, budget, window, heldUsd, usd, spentUsd }) => {
      const overage = usd - heldUsd;
      if (overage > 0) {
        metrics?.budgetOverageUsd.inc({ key }, overage);
        logger.warn(
          { key, heldUsd, usd },
          'a model call cost more than the worst case it held against its budget (its upstream ignored max_tokens)',
        );
      }
      metrics?.budgetUsedRatio.set({ key }, spentUsd / budget.usd);
      if (budget.softUsd !== undefined && spentUsd >= budget.softUsd && softTold.get(key) !== window.fromMs) {
        softTold.set(key, window.fromMs);
        logger.warn(
          { key, spentUsd, softUsd: budget.softUsd, usd: budget.usd },
          `key '${key}' has spent past the soft limit of its budget`,
        );
      }
    },
    onSettleFailed: (error, key) =>
      logger.error(
        { err: error, key },
        "a model call's spend could not be settled against its budget: its hold lapses after RXGATE_BUDGET_LEASE_MS",
      ),
  };
}
