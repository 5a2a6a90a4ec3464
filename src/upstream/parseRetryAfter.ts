/**
 * A `Retry-After` header in milliseconds from `now`: delay-seconds (`2`, `1.5`) or an HTTP date.
 * Absent or unreadable: `undefined`; a date in the past: 0.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
