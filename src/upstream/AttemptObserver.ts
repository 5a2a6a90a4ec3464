import type { BreakerState } from './CircuitBreaker.js';

/** One attempt of a model call: which route, where it went, and how long it waited to go. */
export interface AttemptInfo {
  /** The model name the client asked for. */
  readonly requested: string;
  /** The route the attempt is on: `requested`'s, or a fallback's. */
  readonly route: string;
  readonly upstream: string;
  /** The model name the upstream knows it by. */
  readonly model: string;
  /** 1 for a call's first attempt, counted across targets and fallbacks. */
  readonly attempt: number;
  /** The backoff or `Retry-After` wait before it, in milliseconds. */
  readonly waitedMs: number;
}

/** How an attempt ended: `success`, `cancelled` (the client left), or the failure's kind (`rate_limited`, `dropped`, ...). */
export type AttemptOutcome = 'success' | 'cancelled' | (string & {});

/**
 * Told of every upstream attempt, from start to end; metrics listen here, and so can a tracer
 * (one span per attempt). Handed down explicitly: RxJS operators carry no ambient context.
 */
export interface AttemptObserver {
  attemptStarted(attempt: AttemptInfo): void;
  attemptEnded(attempt: AttemptInfo, outcome: AttemptOutcome): void;
  /**
   * An attempt let its first content through: the model call is now this attempt's answer, and is
   * never retried. Told only when the routes have several upstreams: with one, there is no choice to tell of.
   */
  attemptCommitted?(attempt: AttemptInfo): void;
  /** An upstream's breaker after an attempt ended (or let its first content through). */
  breakerChanged?(upstream: string, state: BreakerState): void;
}
