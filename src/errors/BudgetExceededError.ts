import { describePeriod, type Budget } from '../budget.js';
import { RxgateError } from './RxgateError.js';

const dollars = (usd: number): string => `$${usd.toFixed(usd < 1 ? 4 : 2)}`;

/**
 * A key's budget leaves no room for a model call's worst case: 429 `insufficient_quota`, with the
 * seconds to its reset, and `x-should-retry: false`, since a retry before then fails the same.
 */
export class BudgetExceededError extends RxgateError {
  readonly retryAfterSeconds: number;

  constructor(
    readonly keyId: string,
    readonly budget: Budget,
    spentUsd: number,
    heldUsd: number,
    readonly resetsAtMs: number,
    nowMs: number,
  ) {
    const held = heldUsd > 0 ? ` (and ${dollars(heldUsd)} held by its calls in flight)` : '';
    super(
      `key '${keyId}' has spent ${dollars(spentUsd)}${held} of its ${dollars(budget.usd)} budget ${describePeriod(budget)}, ` +
        `which leaves no room for this model call; it resets at ${new Date(resetsAtMs).toISOString()}`,
    );
    this.retryAfterSeconds = Math.max(1, Math.ceil((resetsAtMs - nowMs) / 1000));
  }
}
