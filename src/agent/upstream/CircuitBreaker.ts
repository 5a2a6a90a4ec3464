import type { BreakerPolicy } from './routes.js';

export type BreakerState = 'closed' | 'open' | 'half_open';

/**
 * One upstream's breaker: `failures` consecutive counted failures open it for `cooldownMs`; then
 * one trial call goes through, and its success closes it (its failure opens it again). The end of
 * a cooldown only moves forward. A call that was cancelled says nothing about the upstream.
 */
export class CircuitBreaker {
  private failures = 0;
  private openUntil = Number.NEGATIVE_INFINITY;
  private trialInFlight = false;

  constructor(
    private readonly policy: BreakerPolicy,
    private readonly now: () => number,
  ) {}

  get state(): BreakerState {
    if (this.failures < this.policy.failures) return 'closed';
    return this.now() < this.openUntil ? 'open' : 'half_open';
  }

  /** Whether a call may go now: always when closed, never when open, one at a time when half open. */
  allows(): boolean {
    const state = this.state;
    return state === 'closed' || (state === 'half_open' && !this.trialInFlight);
  }

  /** A call starts; when half open, it is the trial. */
  begin(): void {
    if (this.state === 'half_open') this.trialInFlight = true;
  }

  succeed(): void {
    this.failures = 0;
    this.trialInFlight = false;
  }

  fail(): void {
    this.failures++;
    this.trialInFlight = false;
    if (this.failures >= this.policy.failures) this.openUntil = Math.max(this.openUntil, this.now() + this.policy.cooldownMs);
  }

  /** Refused our key (401/403): open at once, whatever the count. */
  trip(): void {
    this.failures = Math.max(this.failures, this.policy.failures - 1);
    this.fail();
  }

  /** A call cancelled by its client: neither a success nor a failure. */
  release(): void {
    this.trialInFlight = false;
  }
}
