import type { Price } from '../money/price.js';

/** How long an upstream may stay silent, phase by phase; none bounds a stream that keeps producing. */
export interface UpstreamTimeouts {
  /** To open the TCP (and TLS) connection. */
  readonly connectMs: number;
  /** From the request sent to the response headers. */
  readonly firstByteMs: number;
  /** From the request sent to the first content (a text, reasoning or tool-call delta). */
  readonly firstContentMs: number;
  /** Between two reads of the body, reset on every byte. */
  readonly idleMs: number;
  /** Opt-in: the most one call may take, first byte to last (`RXGATE_UPSTREAM_TIMEOUT_MS`). */
  readonly totalMs?: number;
}

/**
 * The wire an upstream speaks: `openai`, OpenAI's chat completions (`{url}/chat/completions`, the key as
 * `Authorization: Bearer`); `anthropic`, Anthropic's Messages API (`{url}/messages`, the key as `x-api-key`).
 */
export type UpstreamKind = 'openai' | 'anthropic';

/** One model server and how rxgate talks to it. */
export interface Upstream {
  readonly id: string;
  readonly kind: UpstreamKind;
  /** The API root, ending in `/v1`, for either kind (`https://api.anthropic.com/v1`). */
  readonly url: string;
  /** The key itself, read from the variable the routes file names; never logged. */
  readonly apiKey?: string;
  /** Its share of traffic under `balance: "weighted"`. */
  readonly weight: number;
  /** Calls it may have open at once; a target at its limit is skipped like an unhealthy one. */
  readonly maxInFlight: number;
  readonly timeouts: UpstreamTimeouts;
}

/** One deployment of a model: which upstream, and the model name that upstream knows it by. */
export interface Target {
  readonly upstream: string;
  readonly model: string;
  /** The most output tokens that model gives: a request for more (`max_tokens`) is lowered to it, not refused. */
  readonly maxOutputTokens?: number;
  /** What its calls cost; wins over `RXGATE_PRICES_FILE`'s price of `model`. */
  readonly price?: Price;
}

export type Balance = 'ordered' | 'weighted' | 'least-in-flight';

/** A model name clients ask for, and where its calls go. */
export interface Route {
  readonly name: string;
  readonly targets: readonly Target[];
  readonly balance: Balance;
  /** Routes tried, in order, once every target of this one failed. */
  readonly fallbacks: readonly string[];
  /** Routes tried, in order, when the prompt does not fit (`context_length_exceeded`), and only then. */
  readonly contextWindowFallbacks: readonly string[];
}

export interface RetryPolicy {
  /** Attempts per target, the first included. */
  readonly attempts: number;
  /** Full-jitter backoff: the n-th retry waits a random time below min(capMs, baseMs * 2^(n-1)). */
  readonly baseMs: number;
  readonly capMs: number;
  /** A `Retry-After` longer than this skips the target instead of waiting for it. */
  readonly maxRetryAfterMs: number;
}

/** What one model call may spend before its first content, all attempts and waits together. */
export interface Budget {
  readonly deadlineMs: number;
  readonly maxAttempts: number;
}

export interface BreakerPolicy {
  /** Consecutive counted failures that open an upstream's breaker. */
  readonly failures: number;
  readonly cooldownMs: number;
}

/** Everything a routes file says, checked and with its secrets read; or the one route of `RXGATE_UPSTREAM_*`. */
export interface Routes {
  readonly upstreams: ReadonlyMap<string, Upstream>;
  /** By name; `*` catches every other name. */
  readonly models: ReadonlyMap<string, Route>;
  readonly retry: RetryPolicy;
  readonly budget: Budget;
  readonly breaker: BreakerPolicy;
}

/** The route a model name goes to: its own, else the catch-all `*`, else none. */
export function routeFor(routes: Routes, name: string): Route | undefined {
  return routes.models.get(name) ?? routes.models.get('*');
}
