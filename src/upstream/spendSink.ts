import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics/createMetrics.js';
import { DEFAULT_OWNER } from '../principal.js';
import type { SpentCall } from './SpentCall.js';

/** Where spent calls are written: the store's usage ledger. */
export interface SpendLedger {
  /** Rejects when the call could not be written. */
  record(call: SpentCall): Promise<void>;
}

/**
 * What the model caller tells each spent call (`onSpent`): counted in `rxgate_cost_usd_total{key,model}`
 * (`model` the name the request asked for) or, without a price, `rxgate_unpriced_calls_total{model}`
 * (the upstream's model name), and written to `ledger`, a failed write logged. A cancelled stream
 * counts what it spent too. Undefined when there is neither.
 */
export function spendSink(logger: Logger, metrics?: Metrics, ledger?: SpendLedger): ((call: SpentCall) => void) | undefined {
  if (!metrics && !ledger) return undefined;
  return (call) => {
    const { attempt, payer, cost } = call;
    if (metrics && !cost.priced) metrics.unpricedCalls.inc({ model: attempt.model });
    else if (metrics && cost.usd > 0) metrics.costUsd.inc({ key: payer?.key ?? DEFAULT_OWNER, model: attempt.requested }, cost.usd);
    ledger?.record(call).catch((error: unknown) => logger.warn({ err: error }, 'a model call was not written to the usage ledger'));
  };
}
