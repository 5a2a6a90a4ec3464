import { Registry } from 'prom-client';
import type { Metrics } from '../src/metrics/createMetrics.js';

const noop = () => undefined;
const NOOP = { inc: noop, dec: noop, set: noop, observe: noop, startTimer: () => noop, labels: (): unknown => NOOP };

/**
 * rxgate's metrics with every metric a no-op and no default collectors (no event-loop monitor,
 * no GC observer): the baseline that shows what always-on Prometheus metrics cost. The key list
 * is checked against `Metrics`, so a new metric makes this file fail to compile.
 */
export function noopMetrics(): Metrics {
  const metrics: { [K in keyof Metrics]: unknown } = {
    registry: new Registry(),
    inFlightStreams: NOOP,
    keyRequests: NOOP,
    keyInFlight: NOOP,
    keyTokens: NOOP,
    costUsd: NOOP,
    budgetOverageUsd: NOOP,
    budgetUsedRatio: NOOP,
    unpricedCalls: NOOP,
    inFlightRuns: NOOP,
    requests: NOOP,
    timeToFirstByte: NOOP,
    timeToFirstToken: NOOP,
    streamDuration: NOOP,
    disconnectToInterrupt: NOOP,
    upstreamRequests: NOOP,
    upstreamErrors: NOOP,
    upstreamAttempts: NOOP,
    upstreamFallbacks: NOOP,
    upstreamBreakerState: NOOP,
    upstreamRetryWait: NOOP,
    tokens: NOOP,
    bytesWritten: NOOP,
    keepalives: NOOP,
    slowClientCompactions: NOOP,
    slowClientCutoffs: NOOP,
  };
  return metrics as Metrics;
}
