import type { SpentCall } from '../upstream/SpentCall.js';
import type { SpendLedger } from '../upstream/spendSink.js';

/** The buckets `GET /api/usage` sums in, in UTC. */
export const USAGE_BUCKET_MS = { hour: 3_600_000, day: 86_400_000 } as const;
export type UsageBucket = keyof typeof USAGE_BUCKET_MS;

/** What a summary's rows may be split by: the key, the model name asked for, the upstream's model. */
export const USAGE_GROUPINGS = ['key', 'model', 'upstreamModel'] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

export interface UsageQuery {
  /** From this time on (milliseconds since the epoch), up to `toMs`, excluded. */
  readonly fromMs: number;
  readonly toMs: number;
  readonly bucket: UsageBucket;
  readonly groupBy: readonly UsageGrouping[];
  /** Only this key's calls; absent: every key's. */
  readonly key?: string;
}

/** The sum of some calls. */
export interface UsageTotals {
  readonly calls: number;
  readonly inputTokens: number;
  readonly cachedInputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
  /** Of `calls`, those whose tokens rxgate counted, the upstream having reported none. */
  readonly estimatedCalls: number;
}

/** One bucket's calls of one group: the fields grouped by are set, the others absent. */
export interface UsageRow extends UsageTotals {
  readonly startMs: number;
  readonly key?: string;
  readonly model?: string;
  readonly upstreamModel?: string;
}

/**
 * The usage ledger: one row for every upstream attempt that spent something (`SpentCall`), kept
 * `RXGATE_USAGE_RETENTION_DAYS`, summed by time and group for `GET /api/usage`.
 */
export interface UsageLedger extends SpendLedger {
  /** Writes the call's row; rejects with a `StoreError` when the store cannot. */
  record(call: SpentCall): Promise<void>;
  /** The query's rows, by bucket, then group; only buckets with calls. */
  summarize(query: UsageQuery): Promise<UsageRow[]>;
}
