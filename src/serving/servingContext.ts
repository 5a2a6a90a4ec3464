import type { Agent } from '../agent/agent.js';
import type { Metrics } from '../metrics/createMetrics.js';
import type { ActiveRuns } from './activeRuns.js';

/** What every API route that runs the agent or streams needs; each API adds its own on top. */
export interface ServingContext {
  readonly agent: Agent;
  readonly metrics: Metrics;
  /** The runs in flight, so that shutdown can interrupt them. */
  readonly activeRuns: ActiveRuns;
  /** The model a request that names none gets (`RXGATE_MODEL_ID`). */
  readonly defaultModel: string;
  /** `RXGATE_KEEPALIVE_MS`. */
  readonly keepaliveMs: number;
  /** `RXGATE_MAX_BUFFERED_BYTES`. */
  readonly maxBufferedBytes: number;
  /** `RXGATE_MAX_OUTPUT_CHARS`: what every run's lifecycle caps its answer at. */
  readonly maxOutputChars: number;
}
