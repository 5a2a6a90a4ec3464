import type { UpstreamTimeouts } from './routes.js';
import type { Config } from '../config.js';

/** The timeouts of the `RXGATE_UPSTREAM_*` settings, which a routes file's upstreams default to. */
export function upstreamTimeouts(config: Config): UpstreamTimeouts {
  return {
    connectMs: config.upstreamConnectTimeoutMs,
    firstByteMs: config.upstreamFirstByteTimeoutMs,
    firstContentMs: config.upstreamFirstTokenTimeoutMs,
    idleMs: config.upstreamIdleTimeoutMs,
    totalMs: config.upstreamTimeoutMs,
  };
}
