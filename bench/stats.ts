/** The q-th percentile (0..100) of some samples, nearest-rank. */
export function percentile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((q / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export const median = (samples: readonly number[]) => percentile(samples, 50);
export const p99 = (samples: readonly number[]) => percentile(samples, 99);

/** Fixed-point for tables. */
export const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
export const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
export const kib = (bytes: number) => (bytes / 1024).toFixed(1);
