import type { RetryPolicy } from './routes.js';

/**
 * Exponential backoff with full jitter: the `retry`-th retry (from 1) waits a uniformly random
 * time below min(capMs, baseMs * 2^(retry-1)), so that clients refused at once do not come back at once.
 */
export function backoffMs(retry: number, { baseMs, capMs }: RetryPolicy, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(capMs, baseMs * 2 ** (retry - 1)));
}
