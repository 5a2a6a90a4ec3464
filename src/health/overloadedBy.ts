/**
 * What readiness says of a loop `behindMs` late against `maxDelayMs`, whichever thread judged it:
 * the health thread too, which is why this stands apart from `Overload` and its RxJS.
 */
export function overloadedBy(behindMs: number, maxDelayMs: number): string {
  return `overloaded, ${Math.round(behindMs)} ms behind (over ${maxDelayMs} ms)`;
}
