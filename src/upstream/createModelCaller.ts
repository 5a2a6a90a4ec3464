import { asyncScheduler, defer, identity, switchMap, throwError, timer, type Observable, type SchedulerLike } from 'rxjs';
import type { RunTrace } from '../tracing/RunTrace.js';
import { modelNotFound } from '../errors/modelNotFound.js';
import { UpstreamError } from '../errors/UpstreamError.js';
import { callDeadline } from './callDeadline.js';
import { firstValueTimeout } from './firstValueTimeout.js';
import type { UpstreamPost } from './UpstreamPost.js';
import type { AbortNotice } from './AbortNotice.js';
import type { UpstreamChunk } from './upstreamChunk.js';
import { AttemptPlan, type PlannedAttempt } from './AttemptPlan.js';
import type { AttemptInfo, AttemptObserver } from './AttemptObserver.js';
import { carriesOutput } from './carriesOutput.js';
import { failOverBeforeCommit } from './failOverBeforeCommit.js';
import { traceAttempt } from './traceAttempt.js';
import { watchAttempt } from './watchAttempt.js';
import { meterAttempt } from './meterAttempt.js';
import { PriceBook } from '../money/PriceBook.js';
import type { Payer } from '../money/Payer.js';
import type { SpentCall } from './SpentCall.js';
import type { AttemptSpend } from './meterAttempt.js';
import type { BudgetGuard } from './BudgetGuard.js';
import { holdBudget, type SettleHold } from './holdBudget.js';
import { DEFAULT_OWNER } from '../principal.js';
import { routeFor, type Routes, type Target } from './routes.js';
import { UpstreamState } from './UpstreamState.js';

/** One model call as the LLM agent asks for it. */
export interface ModelCallRequest {
  /** The model name the client asked for: a route's name. */
  readonly route: string;
  /** The request body for a target: the model name it knows the model by, the output tokens it gives. */
  readonly bodyFor: (target: Target) => Readonly<Record<string, unknown>>;
  readonly signal: AbortNotice;
  readonly requestId?: string;
  /** Told of this call's attempts, besides the caller's own observer. */
  readonly observer?: AttemptObserver;
  /** The model call span's trace, when tracing is on: each attempt is a span under it, and its request carries that span's `traceparent`. */
  readonly trace?: RunTrace;
  /** Whom the call is spent for, as its attempts' `SpentCall`s name it. */
  readonly payer?: Payer;
}

export interface ModelCaller {
  /**
   * The chunks of one model call. Before the first content, failed attempts are retried, failed
   * over and fallen back on, invisibly; after it, a failure is the stream's error.
   */
  call(request: ModelCallRequest): Observable<UpstreamChunk>;
  /** The model names clients may ask for, `*` (any) included when the routes have it. */
  routeNames(): readonly string[];
  /** Closes every upstream's connection pool (its idle keep-alive sockets); calls made after it fail. */
  close(): Promise<void>;
}

export interface ModelCallerOptions {
  /** Makes one upstream call, as the stream of its chunks (`upstreamChunks`, or a test's). */
  readonly open: (post: UpstreamPost) => Observable<UpstreamChunk>;
  readonly observer?: AttemptObserver;
  /** Told the HTTP status of every upstream answer, 0 when there was none. */
  readonly onResponse?: (status: number) => void;
  /** Times the waits and timeouts, and is the breakers' clock. Default: `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** The prices of `RXGATE_PRICES_FILE` as they are now; a target's own `price` wins. Default: none. */
  readonly prices?: () => PriceBook;
  /** Told once of every attempt that spent something (`SpentCall`): the ledger, the cost metrics. */
  readonly onSpent?: (call: SpentCall) => void;
  /** Keeps the priced calls of a payer with a budget within it. Default: budgets are not enforced. */
  readonly budgets?: BudgetGuard;
  /** Draws the jitter and the weighted order. Default: `Math.random`. */
  readonly random?: () => number;
}

/**
 * The upstream layer the LLM agent calls through: routes, target choice, retries with backoff and
 * `Retry-After`, failover, fallbacks, breakers, and each attempt's first-content timeout. The
 * agent sees one stream of chunks per model call and never a retry.
 *
 * ```
 * attempts:  --#                     an attempt on "main" fails before content (a 503)
 *                ----r--t--t--|      the next target, "backup", at once
 * call:      ------r--t--t--|
 * ```
 */
export function createModelCaller(routes: Routes, options: ModelCallerOptions): ModelCaller {
  const { observer, scheduler = asyncScheduler, random = Math.random, prices = () => PriceBook.EMPTY, onSpent, budgets } = options;
  const now = () => scheduler.now();
  // With one upstream there is no choice to tell of, and runs' event streams stay as they were before routes.
  const severalUpstreams = routes.upstreams.size > 1;
  const states = new Map([...routes.upstreams.values()].map((upstream) => [upstream.id, new UpstreamState(upstream, routes.breaker, now)]));

  function attempt(
    request: ModelCallRequest,
    plan: AttemptPlan,
    { candidate, attempt }: PlannedAttempt,
    waitedMs: number,
  ): Observable<UpstreamChunk> {
    const { state, target, route } = candidate;
    const { upstream } = state;
    const info: AttemptInfo = {
      requested: request.route,
      route: route.name,
      upstream: upstream.id,
      model: target.model,
      attempt,
      waitedMs,
    };
    const { firstContentMs, totalMs } = upstream.timeouts;
    // The budget bounds the wait for content too; a stream that produces is never cut by it.
    const contentMs = Math.max(1, Math.min(firstContentMs, plan.remainingMs));
    return defer(() => {
      const body = request.bodyFor(target);
      // The timeouts are the attempt's own: inside its span, a timeout is that span's error.
      const attempt$ = (traceHeaders?: Record<string, string>) =>
        options
          .open({
            kind: upstream.kind,
            endpoint: state.endpoint,
            apiKey: upstream.apiKey,
            body,
            maxOutputTokens: target.maxOutputTokens,
            signal: request.signal,
            requestId: request.requestId,
            onResponse: options.onResponse,
            dispatcher: state.dispatcher,
            traceHeaders,
          })
          .pipe(
            firstValueTimeout(
              contentMs,
              () => new UpstreamError('first_token_timeout', `sent no token within ${contentMs} ms (firstContentMs)`),
              scheduler,
              carriesOutput,
            ),
            totalMs === undefined
              ? identity
              : callDeadline(
                  totalMs,
                  () => new UpstreamError('timeout', `did not finish its answer within ${totalMs} ms (RXGATE_UPSTREAM_TIMEOUT_MS)`),
                  scheduler,
                ),
          );
      const { trace } = request;
      // Priced as it is now: a prices file read again holds from the next attempt on.
      const price = target.price ?? prices().priceOf(target.model);
      const { payer } = request;
      const metered$ = (settle?: SettleHold) =>
        (trace ? traceAttempt(trace, info, state.endpoint.url, attempt$) : attempt$()).pipe(
          meterAttempt(price, body, (spend?: AttemptSpend) => {
            settle?.(spend?.cost.usd ?? 0);
            if (spend && onSpent) onSpent({ at: now(), attempt: info, payer, ...spend });
          }),
          watchAttempt({ info, state, observer, callObserver: request.observer, tellCommit: severalUpstreams }),
        );
      // An unpriced call costs nothing, so it holds nothing.
      if (!budgets || !payer?.budget || !price) return metered$();
      const budgeted = { key: payer.key ?? DEFAULT_OWNER, budget: payer.budget, price, body, maxOutputTokens: target.maxOutputTokens };
      return holdBudget(budgets, budgeted, scheduler, metered$);
    });
  }

  function attempts(request: ModelCallRequest, plan: AttemptPlan, waitedMs = 0): Observable<UpstreamChunk> {
    const planned = plan.next();
    if (!planned) return throwError(() => plan.exhausted());
    // The wait is a timer in this same subscription: a client that leaves ends it, and no request follows.
    // Once it is over the plan is asked again: the target's breaker may have opened meanwhile, or sent its one trial.
    if ('waitMs' in planned)
      return timer(planned.waitMs, scheduler).pipe(switchMap(() => attempts(request, plan, waitedMs + planned.waitMs)));
    return attempt(request, plan, planned, waitedMs).pipe(
      failOverBeforeCommit(carriesOutput, (error) =>
        plan.failed(planned, error) === 'give_up' ? throwError(() => error) : attempts(request, plan),
      ),
    );
  }

  const caller: ModelCaller = {
    call(request) {
      return defer(() => {
        const route = routeFor(routes, request.route);
        if (!route) return throwError(() => modelNotFound(request.route, [...routes.models.keys()].map((name) => `'${name}'`).join(', ')));
        return attempts(request, new AttemptPlan(routes, route, states, now, random));
      });
    },
    routeNames: () => [...routes.models.keys()],
    close: async () => {
      await Promise.all([...states.values()].map((state) => state.dispatcher.close()));
    },
  };
  return caller;
}
