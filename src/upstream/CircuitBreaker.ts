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

  /** A call starts; when half open, it is the trial. Whether it is: only the trial's end (`endTrial`) lets another go. */
  begin(): boolean {
    if (this.state !== 'half_open') return false;
    this.trialInFlight = true;
    return true;
  }

  succeed(): void {
    this.failures = 0;
  }

  fail(): void {
    this.failures++;
    if (this.failures >= this.policy.failures) this.openUntil = Math.max(this.openUntil, this.now() + this.policy.cooldownMs);
  }

  /** Refused our key (401/403): open at once, whatever the count; a breaker that never opens (`failures` infinite) stays closed. */
  trip(): void {
    if (Number.isFinite(this.policy.failures)) this.failures = Math.max(this.failures, this.policy.failures - 1);
    this.fail();
  }

  /**
   * The trial has its answer (its first content, or its end, a cancel included): another call may be
   * the next trial. A call begun before the breaker opened is no trial, and its end frees none.
   */
  endTrial(): void {
    this.trialInFlight = false;
  }
}
