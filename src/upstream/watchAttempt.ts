import { Observable, type MonoTypeOperatorFunction, type Subscriber } from 'rxjs';
import { UpstreamError } from '../errors/UpstreamError.js';
import type { UpstreamChunk } from './upstreamChunk.js';
import type { AttemptInfo, AttemptObserver } from './AttemptObserver.js';
import { carriesOutput } from './carriesOutput.js';
import { countsAgainstUpstream, failureAction } from './failureAction.js';
import type { UpstreamState } from './UpstreamState.js';
import { Stage } from '../rx/Stage.js';

/** One attempt as its upstream's state and the observers of its call see it. */
export interface WatchedAttempt {
  readonly info: AttemptInfo;
  readonly state: UpstreamState;
  /** The model caller's observer: told of the attempt, and of the breaker after the attempt committed or ended. */
  readonly observer?: AttemptObserver;
  /** The model call's own observer: told of the attempt, after the caller's. */
  readonly callObserver?: AttemptObserver;
  /** Whether the observers are told of the commit: only when there was a choice of upstream. */
  readonly tellCommit: boolean;
}

const settleNothing = (): void => undefined;

/** The bookkeeping of one attempt, for every open stream. */
class AttemptWatch extends Stage<UpstreamChunk> {
  private committed = false;
  private ended = false;

  constructor(
    destination: Subscriber<UpstreamChunk>,
    private readonly attempt: WatchedAttempt,
    /** Whether it is its half-open breaker's one trial, until that has its answer. */
    private trial: boolean,
  ) {
    super(destination);
  }

  protected onNext(chunk: UpstreamChunk): void {
    if (!this.committed && carriesOutput(chunk)) {
      this.committed = true;
      if (!this.told(() => this.commit())) return;
    }
    this.destination.next(chunk);
  }

  protected override onError(error: unknown): void {
    const { breaker } = this.attempt.state;
    const settle = () => {
      if (failureAction(error) === 'next_target') breaker.trip();
      else if (countsAgainstUpstream(error)) breaker.fail();
    };
    if (this.told(() => this.end(error instanceof UpstreamError ? error.kind : 'error', settle))) this.destination.error(error);
  }

  protected override onComplete(): void {
    if (this.told(() => this.end('success', () => this.attempt.state.breaker.succeed()))) this.destination.complete();
  }

  // Also after an end: only the first end counts.
  override unsubscribe(): void {
    super.unsubscribe();
    // A client that left says nothing about the upstream.
    this.end('cancelled', settleNothing);
  }

  /** Only the first end counts: a completion is followed by the unsubscription that says `cancelled`. */
  private end(outcome: string, settle: () => void): void {
    if (this.ended) return;
    this.ended = true;
    const { state, info, observer, callObserver } = this.attempt;
    state.inFlight--;
    settle();
    this.endTrial();
    this.reportBreaker();
    observer?.attemptEnded(info, outcome);
    callObserver?.attemptEnded(info, outcome);
  }

  /**
   * Does the bookkeeping `step` (which tells the observers); as in `tap`, an observer that throws
   * fails the stream with what it threw instead of escaping. Whether the step went through.
   */
  private told(step: () => void): boolean {
    try {
      step();
      return true;
    } catch (failure) {
      this.destination.error(failure);
      return false;
    }
  }

  private commit(): void {
    const { state, info, observer, callObserver, tellCommit } = this.attempt;
    state.breaker.succeed();
    this.endTrial();
    this.reportBreaker();
    if (tellCommit) {
      observer?.attemptCommitted?.(info);
      callObserver?.attemptCommitted?.(info);
    }
  }

  private endTrial(): void {
    if (!this.trial) return;
    this.trial = false;
    this.attempt.state.breaker.endTrial();
  }

  private reportBreaker(): void {
    const { state, observer } = this.attempt;
    observer?.breakerChanged?.(state.upstream.id, state.breaker.state);
  }
}

/**
 * Counts an upstream attempt from subscription to its end: starts it on its upstream's breaker and
 * in-flight count, succeeds the breaker at the first content, and at the end settles the breaker
 * by how it ended (a client that left says nothing about the upstream) and tells the observers.
 *
 * ```
 * source:     --r--t--|          r = role chunk, t = content
 * observers:  S----C--E          S = attemptStarted, C = attemptCommitted, E = attemptEnded(success)
 * ```
 */
export function watchAttempt(attempt: WatchedAttempt): MonoTypeOperatorFunction<UpstreamChunk> {
  return (chunks$) =>
    new Observable<UpstreamChunk>((destination) => {
      const { state, info, observer, callObserver } = attempt;
      observer?.attemptStarted(info);
      callObserver?.attemptStarted(info);
      const trial = state.breaker.begin();
      state.inFlight++;
      return new AttemptWatch(destination, attempt, trial).subscribeTo(chunks$);
    });
}
