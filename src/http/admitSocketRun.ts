import type { Metrics } from '../metrics/createMetrics.js';
import type { BudgetLedger } from '../money/BudgetLedger.js';
import type { Principal } from '../principal.js';
import type { KeyLimits, ReleaseSlot } from '../store/KeyLimits.js';
import type { AdvertisedModels } from './advertisedModels.js';
import { unadvertisedModel } from './modelsRoute.js';
import { admitRequest, admitRun } from './keys/admitRun.js';

const NO_SLOT: ReleaseSlot = () => undefined;

/**
 * What a `response.create` over WebSocket goes through before it runs, as a `POST /v1/responses`
 * does in its middleware: its model one a route takes (`requireKnownModel`), then, with keys, the
 * key's `rpm`, its `models` and one of its `maxStreams` slots (`enforceKeyPolicy`).
 */
export function admitSocketRun(
  models: AdvertisedModels,
  keyLimits: { readonly limits: KeyLimits; readonly metrics: Metrics; readonly budgets: BudgetLedger } | undefined,
): (principal: Principal, model: string) => Promise<ReleaseSlot> {
  return async (principal, model) => {
    if (!models.accepts(model)) throw unadvertisedModel(model, models);
    if (!keyLimits) return NO_SLOT;
    await admitRequest(keyLimits.limits, keyLimits.metrics, principal);
    return admitRun(keyLimits.limits, keyLimits.metrics, keyLimits.budgets, principal, model);
  };
}
