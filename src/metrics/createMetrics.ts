import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const FAST_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1];

/** Every metric rxgate records, in one Prometheus registry (names are listed in the README). */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'rxgate_' });
  const registers = [registry];
  return {
    registry,
    inFlightStreams: new Gauge({
      name: 'rxgate_in_flight_streams',
      help: 'Requests being answered by route: agent runs served to a client (streaming or not) and event streams.',
      labelNames: ['route'] as const,
      registers,
    }),
    keyRequests: new Counter({
      name: 'rxgate_key_requests_total',
      help: 'Authenticated requests, by key id.',
      labelNames: ['key'] as const,
      registers,
    }),
    keyInFlight: new Gauge({
      name: 'rxgate_key_in_flight',
      help: 'Agent requests and detached runs in flight, by key id.',
      labelNames: ['key'] as const,
      registers,
    }),
    keyTokens: new Counter({
      name: 'rxgate_key_tokens_total',
      help: 'Tokens reported by the upstream for the runs of each key id, by direction.',
      labelNames: ['key', 'direction'] as const,
      registers,
    }),
    costUsd: new Counter({
      name: 'rxgate_cost_usd_total',
      help: 'USD the priced model calls cost, by key id (`default` on a server without keys) and the model name the request asked for.',
      labelNames: ['key', 'model'] as const,
      registers,
    }),
    budgetOverageUsd: new Counter({
      name: 'rxgate_budget_overage_usd_total',
      help: "USD model calls cost beyond the worst case they held against their key's budget (an upstream that ignored max_tokens), by key id.",
      labelNames: ['key'] as const,
      registers,
    }),
    budgetUsedRatio: new Gauge({
      name: 'rxgate_key_budget_used_ratio',
      help: 'The share of its budget a key has spent in its period, as of its last settled model call, by key id.',
      labelNames: ['key'] as const,
      registers,
    }),
    unpricedCalls: new Counter({
      name: 'rxgate_unpriced_calls_total',
      help: 'Model calls whose upstream model has no price (neither its route target nor RXGATE_PRICES_FILE has one), by upstream model.',
      labelNames: ['model'] as const,
      registers,
    }),
    inFlightRuns: new Gauge({ name: 'rxgate_in_flight_runs', help: 'Background runs in progress.', registers }),
    requests: new Counter({
      name: 'rxgate_requests_total',
      help: 'Finished HTTP requests by route, status and outcome.',
      labelNames: ['route', 'status', 'outcome'] as const,
      registers,
    }),
    timeToFirstByte: new Histogram({
      name: 'rxgate_time_to_first_byte_seconds',
      help: 'From request arrival to the first response byte written to the client.',
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    timeToFirstToken: new Histogram({
      name: 'rxgate_time_to_first_token_seconds',
      help: 'From the start of a run to its first text or reasoning delta (the upstream model time to first token).',
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    streamDuration: new Histogram({
      name: 'rxgate_stream_duration_seconds',
      help: 'From request arrival to the end of the response, by outcome.',
      labelNames: ['outcome'] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    disconnectToInterrupt: new Histogram({
      name: 'rxgate_disconnect_to_interrupt_seconds',
      help: 'From the client leaving (or a stop) to the agent being interrupted.',
      buckets: FAST_BUCKETS,
      registers,
    }),
    upstreamRequests: new Counter({
      name: 'rxgate_upstream_requests_total',
      help: 'Upstream LLM calls by HTTP status (0: no response).',
      labelNames: ['status'] as const,
      registers,
    }),
    upstreamErrors: new Counter({
      name: 'rxgate_upstream_errors_total',
      help: 'Upstream failures by kind.',
      labelNames: ['kind'] as const,
      registers,
    }),
    upstreamAttempts: new Counter({
      name: 'rxgate_upstream_attempts_total',
      help: 'Upstream attempts of model calls by upstream and outcome (success, cancelled, or the failure kind).',
      labelNames: ['upstream', 'outcome'] as const,
      registers,
    }),
    upstreamFallbacks: new Counter({
      name: 'rxgate_upstream_fallbacks_total',
      help: 'Attempts made on a fallback route instead of the model the client asked for, by both routes.',
      labelNames: ['from', 'to'] as const,
      registers,
    }),
    upstreamBreakerState: new Gauge({
      name: 'rxgate_upstream_breaker_state',
      help: 'Circuit breaker of each upstream: 0 closed, 1 half open (a trial may go), 2 open.',
      labelNames: ['upstream'] as const,
      registers,
    }),
    upstreamRetryWait: new Histogram({
      name: 'rxgate_upstream_retry_wait_seconds',
      help: 'Time spent waiting (backoff or Retry-After) before an upstream attempt that was not the first of its call.',
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    tokens: new Counter({
      name: 'rxgate_tokens_total',
      help: 'Tokens reported by the upstream, by direction.',
      labelNames: ['direction'] as const,
      registers,
    }),
    bytesWritten: new Counter({
      name: 'rxgate_sse_bytes_written_total',
      help: 'SSE bytes handed to client sockets, by route.',
      labelNames: ['route'] as const,
      registers,
    }),
    keepalives: new Counter({
      name: 'rxgate_sse_keepalives_total',
      help: 'SSE keepalive comments sent, by route.',
      labelNames: ['route'] as const,
      registers,
    }),
    slowClientCompactions: new Counter({
      name: 'rxgate_slow_client_compactions_total',
      help: 'Times the frames held for a slow client were coalesced.',
      registers,
    }),
    slowClientCutoffs: new Counter({
      name: 'rxgate_slow_client_cutoffs_total',
      help: 'Clients cut off for reading too slowly.',
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
