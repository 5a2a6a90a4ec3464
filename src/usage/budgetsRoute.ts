import { budgetWindow } from '../money/budgetWindow.js';
import type { Principal } from '../principal.js';
import type { RouteHandler } from '../serving/routeHandler.js';
import { localsOf } from '../serving/requestLocals.js';
import type { BudgetLedger } from '../money/BudgetLedger.js';

/** Every key now in force. */
export type KeysInForce = () => readonly Principal[];

/**
 * `GET /api/budgets`: each key's budget with what it has spent and holds in its period now; a key
 * sees its own (an empty list without a budget), an admin every key that has one.
 */
export const budgetsRoute =
  (ledger: BudgetLedger, keysInForce: KeysInForce): RouteHandler =>
  async (_req, res) => {
    const { principal } = localsOf(res);
    const nowMs = Date.now();
    const budgeted = (principal.admin ? keysInForce() : [principal]).filter((key) => key.policy?.budget);
    const data = await Promise.all(
      budgeted.map(async ({ id, policy }) => {
        const budget = policy!.budget!;
        const window = budgetWindow(budget, nowMs);
        const { spentUsd, heldUsd } = await ledger.standing(id, window, nowMs);
        return {
          key: id,
          usd: budget.usd,
          softUsd: budget.softUsd ?? null,
          period: budget.period,
          timeZone: budget.timeZone ?? 'UTC',
          periodStart: Math.floor(window.fromMs / 1000),
          resetsAt: Math.ceil(window.resetsAtMs / 1000),
          spentUsd,
          reservedUsd: heldUsd,
        };
      }),
    );
    res.json({ object: 'list', data });
  };
