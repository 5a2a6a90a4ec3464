import type { Agent } from '../agent/agent.js';
import type { DetachedRuns } from '../detached/DetachedRuns.js';
import type { Metrics } from '../metrics/createMetrics.js';
import type { ResponseDraft } from './ResponseDraft.js';
import type { Store } from '../store/Store.js';
import type { ActiveRuns } from '../pipeline/activeRuns.js';

/** What the Responses API routes share. */
export interface ResponsesContext {
  readonly agent: Agent;
  readonly store: Store;
  readonly detached: DetachedRuns;
  readonly activeRuns: ActiveRuns;
  readonly metrics: Metrics;
  readonly defaultModel: string;
  readonly keepaliveMs: number;
  readonly maxBufferedBytes: number;
  /** The drafts of background responses in flight, for `GET` while they run. */
  readonly liveDrafts: Map<string, ResponseDraft>;
}
