import type { RequestHandler, Router } from 'express';
import type { RouteHandler } from '../serving/routeHandler.js';
import type { UsageLedger } from '../store/UsageLedger.js';
import { usageRoute } from './usageRoute.js';

/** `/api/usage`: the usage ledger's sums, on `api` (`/api`, behind authentication and the key's policy). */
export function usageApi(api: Router, ledger: UsageLedger, mount: (handler: RouteHandler) => RequestHandler): void {
  api.get('/usage', mount(usageRoute(ledger)));
}
