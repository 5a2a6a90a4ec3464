import type { Config } from '../config.js';

const DAY_MS = 24 * 3600 * 1000;

export interface RetentionPolicy {
  /** Settled responses (and, separately, finished runs) kept; older ones go first. */
  readonly maxItems: number;
  /** Anything settled and older than this is removed. */
  readonly maxAgeMs: number;
  /** The usage ledger's rows older than this are removed (`RXGATE_USAGE_RETENTION_DAYS`). */
  readonly usageMaxAgeMs: number;
}

/** The policy the retention settings (`RXGATE_RETENTION_MAX_ITEMS`, `RXGATE_RETENTION_MAX_AGE_DAYS`, `RXGATE_USAGE_RETENTION_DAYS`) describe. */
export function retentionPolicy({
  retentionMaxItems,
  retentionMaxAgeDays,
  usageRetentionDays,
}: Pick<Config, 'retentionMaxItems' | 'retentionMaxAgeDays' | 'usageRetentionDays'>): RetentionPolicy {
  return { maxItems: retentionMaxItems, maxAgeMs: retentionMaxAgeDays * DAY_MS, usageMaxAgeMs: usageRetentionDays * DAY_MS };
}
