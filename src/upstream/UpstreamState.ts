import { Agent } from 'undici';
import { UpstreamEndpoint } from './UpstreamEndpoint.js';
import { CircuitBreaker } from './CircuitBreaker.js';
import type { BreakerPolicy, Upstream } from './routes.js';

/**
 * What rxgate knows of one upstream across calls: its breaker, its calls open now, its own
 * connection pool, whose timeouts are the upstream's connect, first-byte and idle ones, and where
 * its model calls are posted: its chat completions, or its Messages for an `anthropic` one.
 */
export class UpstreamState {
  readonly breaker: CircuitBreaker;
  readonly dispatcher: Agent;
  readonly endpoint: UpstreamEndpoint;
  inFlight = 0;

  constructor(
    readonly upstream: Upstream,
    breaker: BreakerPolicy,
    now: () => number,
  ) {
    this.breaker = new CircuitBreaker(breaker, now);
    const { connectMs, firstByteMs, idleMs } = upstream.timeouts;
    this.dispatcher = new Agent({ connect: { timeout: connectMs }, headersTimeout: firstByteMs, bodyTimeout: idleMs });
    const path = upstream.kind === 'anthropic' ? 'messages' : 'chat/completions';
    this.endpoint = new UpstreamEndpoint(`${upstream.url.replace(/\/+$/, '')}/${path}`);
  }

  get weight(): number {
    return this.upstream.weight;
  }

  /** Whether a call may go to it now: its breaker lets one through and it is under `maxInFlight`. */
  get available(): boolean {
    return this.inFlight < this.upstream.maxInFlight && this.breaker.allows();
  }
}
