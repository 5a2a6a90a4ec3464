import type { RequestHandler, Router } from 'express';
import type { RouteHandler } from '../serving/routeHandler.js';
import type { BudgetLedger } from '../money/BudgetLedger.js';
import type { UsageLedger } from '../store/UsageLedger.js';
import { budgetsRoute, type KeysInForce } from './budgetsRoute.js';
import { usageRoute } from './usageRoute.js';

/** What the usage API reads: the ledger's rows, the budgets' spend, and the keys with their budgets. */
export interface UsageSources {
  readonly usage: UsageLedger;
  readonly budgets: BudgetLedger;
  readonly keysInForce: KeysInForce;
}

/** `/api/usage` and `/api/budgets` on `api` (`/api`, behind authentication and the key's policy). */
export function usageApi(
  api: Router,
  { usage, budgets, keysInForce }: UsageSources,
  mount: (handler: RouteHandler) => RequestHandler,
): void {
  api.get('/usage', mount(usageRoute(usage)));
  api.get('/budgets', mount(budgetsRoute(budgets, keysInForce)));
}
