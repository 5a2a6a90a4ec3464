import { KeyLimitError } from '../../errors/KeyLimitError.js';
import { modelNotFound } from '../../errors/modelNotFound.js';
import type { BudgetLedger } from '../../money/BudgetLedger.js';
import { budgetRefusal } from '../../money/budgetRefusal.js';
import type { Metrics } from '../../metrics/createMetrics.js';
import { mayUseModel, type Principal } from '../../principal.js';
import type { KeyLimits, ReleaseSlot } from '../../store/KeyLimits.js';
import { takeStreamSlot } from './takeStreamSlot.js';

/** Counts one request of `principal`'s key, and refuses it past the key's `rpm` (429 `rate_limit_exceeded` with `Retry-After`). */
export async function admitRequest(limits: KeyLimits, metrics: Metrics, { id, policy = {} }: Principal): Promise<void> {
  metrics.keyRequests.inc({ key: id });
  if (policy.rpm === undefined) return;
  const waitMs = await limits.admit(id, policy.rpm);
  if (waitMs > 0) throw new KeyLimitError(id, 'rpm', policy.rpm, Math.ceil(waitMs / 1000));
}

/**
 * What a run of `model` needs of `principal`'s key: the model among its `models` (404
 * `model_not_found`), a budget not yet spent (429 `budget_exceeded`, before a stream's headers go
 * out) and one of its `maxStreams` slots (429 while all are taken), held until the returned
 * function is called.
 */
export async function admitRun(
  limits: KeyLimits,
  metrics: Metrics,
  budgets: BudgetLedger,
  principal: Principal,
  model: string,
): Promise<ReleaseSlot> {
  if (!mayUseModel(principal, model)) throw modelNotFound(model);
  const spent = await budgetRefusal(budgets, principal, Date.now());
  if (spent) throw spent;
  return takeRunSlot(limits, metrics, principal);
}

/** One of the `maxStreams` slots of `principal`'s key, or a 429 while all are taken. */
export async function takeRunSlot(limits: KeyLimits, metrics: Metrics, principal: Principal): Promise<ReleaseSlot> {
  const release = await takeStreamSlot(limits, metrics, principal);
  if (!release) throw new KeyLimitError(principal.id, 'maxStreams', principal.policy!.maxStreams!, 1);
  return release;
}
