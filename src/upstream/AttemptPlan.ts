import { UpstreamError } from '../errors/UpstreamError.js';
import { UpstreamsExhaustedError } from '../errors/UpstreamsExhaustedError.js';
import { backoffMs } from './backoffMs.js';
import { failureAction, type FailureAction } from './failureAction.js';
import { orderTargets } from './orderTargets.js';
import type { Route, Routes, Target } from './routes.js';
import type { UpstreamState } from './UpstreamState.js';

/** A target of the route being tried, and what its attempts so far left. */
class Candidate {
  attempts = 0;
  notBefore = Number.NEGATIVE_INFINITY;
  done = false;

  constructor(
    readonly route: Route,
    readonly target: Target,
    readonly state: UpstreamState,
  ) {}

  get weight(): number {
    return this.state.weight;
  }

  get inFlight(): number {
    return this.state.inFlight;
  }
}

/** The next attempt of a model call: where it goes, now. */
export interface PlannedAttempt {
  readonly candidate: Candidate;
  /** 1 for the call's first attempt. */
  readonly attempt: number;
}

/** No attempt yet: the plan is asked again after the wait (the target's breaker may open, or its one trial go, meanwhile). */
export interface PlannedWait {
  readonly waitMs: number;
}

/**
 * The attempts of one model call before its commit point: its route's targets in the order of its
 * `balance`, then its `fallbacks` (or, for a prompt too long, only its `contextWindowFallbacks`),
 * within the `budget`. A failed target is retried after its backoff or its `Retry-After`, whichever
 * is longer, unless another target is ready now: that one goes first, without a wait.
 */
export class AttemptPlan {
  private attempts = 0;
  private candidates: Candidate[] = [];
  private readonly pending: string[];
  private readonly visited = new Set<string>();
  private readonly deadline: number;
  private last: UpstreamError | undefined;
  private retryAfterMs: number | undefined;

  constructor(
    private readonly routes: Routes,
    private readonly first: Route,
    private readonly states: ReadonlyMap<string, UpstreamState>,
    private readonly now: () => number,
    private readonly random: () => number,
  ) {
    this.pending = [first.name];
    this.deadline = now() + routes.budget.deadlineMs;
  }

  /** What is left of the budget's time, in milliseconds. */
  get remainingMs(): number {
    return this.deadline - this.now();
  }

  /** The next attempt, or a wait before the earliest target may be tried, or none when the targets, the fallbacks or the budget are spent. */
  next(): PlannedAttempt | PlannedWait | undefined {
    const now = this.now();
    // Past the deadline an attempt would have no time left to wait for content: it would only be sent and cut.
    if (this.attempts >= this.routes.budget.maxAttempts || now >= this.deadline) return undefined;
    for (;;) {
      for (const candidate of this.candidates) if (candidate.notBefore > this.deadline) candidate.done = true;
      const ready = this.candidates.filter((candidate) => !candidate.done && candidate.state.available);
      if (ready.length > 0) {
        // The earliest first: a target ready now beats one that asked to be left alone for a while.
        const candidate = ready.reduce((best, next) => (next.notBefore < best.notBefore ? next : best));
        return candidate.notBefore > now ? { waitMs: candidate.notBefore - now } : { candidate, attempt: ++this.attempts };
      }
      const name = this.pending.shift();
      if (name === undefined) return undefined;
      if (this.visited.has(name)) continue;
      this.visited.add(name);
      const route = this.routes.models.get(name)!;
      this.candidates = orderTargets(
        route.targets.map((target) => new Candidate(route, target, this.states.get(target.upstream)!)),
        route.balance,
        this.random,
      );
      this.pending.push(...route.fallbacks);
    }
  }

  /** Takes a failed attempt into account and says what it leads to (`failureAction`). */
  failed({ candidate }: PlannedAttempt, error: unknown): FailureAction {
    const action = failureAction(error);
    if (!(error instanceof UpstreamError)) return action;
    this.last = error;
    const retryAfter = error.retryAfterMs;
    if (retryAfter !== undefined) this.retryAfterMs = Math.min(this.retryAfterMs ?? retryAfter, retryAfter);
    const { retry } = this.routes;
    if (action === 'retry') {
      candidate.attempts++;
      if (candidate.attempts >= retry.attempts || (retryAfter ?? 0) > retry.maxRetryAfterMs) candidate.done = true;
      else candidate.notBefore = this.now() + Math.max(backoffMs(candidate.attempts, retry, this.random), retryAfter ?? 0);
    } else if (action === 'next_target') {
      candidate.done = true;
    } else if (action === 'context_fallback') {
      // One attempt on the primary, then the routes meant for a longer prompt, and no other.
      this.candidates = [];
      this.pending.splice(0, this.pending.length, ...candidate.route.contextWindowFallbacks);
    }
    return action;
  }

  /** Why the call fails now: the one attempt's own error, or what every attempt came to. */
  exhausted(): Error {
    const last =
      this.last ??
      new UpstreamError(
        'unreachable',
        `for the model "${this.first.name}" is cooling down after failures (circuit breaker open), every one of them`,
      );
    return this.attempts === 1 || failureAction(last) === 'context_fallback'
      ? last
      : new UpstreamsExhaustedError(last, this.attempts, this.retryAfterMs);
  }
}
