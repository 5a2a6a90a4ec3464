import type { Agent } from '../agent/agent.js';
import type { DetachedRuns } from '../detached/DetachedRuns.js';
import type { Metrics } from '../metrics/createMetrics.js';
import type { RunObject } from './runObject.js';
import type { Store } from '../store/Store.js';

/** What the Runs API routes share. */
export interface RunsContext {
  readonly agent: Agent;
  readonly store: Store;
  readonly detached: DetachedRuns;
  readonly metrics: Metrics;
  readonly defaultModel: string;
  readonly keepaliveMs: number;
  readonly maxBufferedBytes: number;
  /** The runs in flight, as `GET /v1/runs/{id}` shows them (with the output so far). */
  readonly liveRuns: Map<string, () => RunObject>;
}
