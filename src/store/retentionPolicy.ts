import type { Config } from '../config.js';

export interface RetentionPolicy {
  /** Settled responses (and, separately, finished runs) kept; older ones go first. */
  readonly maxItems: number;
  /** Anything settled and older than this is removed. */
  readonly maxAgeMs: number;
}

/** The policy the retention settings (`RXGATE_RETENTION_MAX_ITEMS`, `RXGATE_RETENTION_MAX_AGE_DAYS`) describe. */
export function retentionPolicy({
  retentionMaxItems,
  retentionMaxAgeDays,
}: Pick<Config, 'retentionMaxItems' | 'retentionMaxAgeDays'>): RetentionPolicy {
  return { maxItems: retentionMaxItems, maxAgeMs: retentionMaxAgeDays * 24 * 3600 * 1000 };
}
