/** The longest wait a `Retry-After` is taken for: an upstream may send any number of digits, or a date years away. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * A `Retry-After` header in milliseconds from `now`: delay-seconds (`2`, `1.5`) or an HTTP date,
 * at most `MAX_RETRY_AFTER_MS`. Absent or unreadable: `undefined`; a date in the past: 0.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.min(MAX_RETRY_AFTER_MS, Math.round(Number(text) * 1000));
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.min(MAX_RETRY_AFTER_MS, Math.max(0, at - now));
}
