import type { Routes, UpstreamTimeouts } from './routes.js';

export interface SingleRouteOptions {
  readonly url: string;
  readonly apiKey?: string;
  readonly model: string;
  readonly timeouts: UpstreamTimeouts;
}

/**
 * The routes of a gateway without a routes file (`RXGATE_UPSTREAM_*`): every model name goes to
 * the one upstream, once, as before there were routes. No retry, and no breaker to shut the only way out.
 */
export function singleRoute({ url, apiKey, model, timeouts }: SingleRouteOptions): Routes {
  return {
    upstreams: new Map([
      ['default', { id: 'default', kind: 'openai', url, apiKey, weight: 1, maxInFlight: Number.POSITIVE_INFINITY, timeouts }],
    ]),
    models: new Map([
      ['*', { name: '*', targets: [{ upstream: 'default', model }], balance: 'ordered', fallbacks: [], contextWindowFallbacks: [] }],
    ]),
    retry: { attempts: 1, baseMs: 0, capMs: 0, maxRetryAfterMs: 0 },
    budget: { deadlineMs: Number.POSITIVE_INFINITY, maxAttempts: 1 },
    breaker: { failures: Number.POSITIVE_INFINITY, cooldownMs: 0 },
  };
}
