import { UpstreamError } from '../errors/UpstreamError.js';

/**
 * What a failed attempt before the commit point leads to:
 * - `retry`: the same target again after a wait, or another target at once;
 * - `next_target`: another target, never this upstream again for this call (its breaker opens);
 * - `context_fallback`: the route's `contextWindowFallbacks`, and nothing else;
 * - `give_up`: the request itself is refused; the upstream's reason goes to the client as it is.
 */
export type FailureAction = 'retry' | 'next_target' | 'context_fallback' | 'give_up';

// Anthropic says `prompt is too long: 208310 tokens > 200000 maximum`.
const CONTEXT_LENGTH = /context_length_exceeded|maximum context length|context window|prompt is too long/i;

/**
 * The one table of what each failure does, for chat, Responses and runs, streaming or not, and
 * for every model call of an agent's tool loop. A failure after the commit point is never
 * retried whatever this says: the client has seen content.
 *
 * | failure                                                    | action            |
 * |------------------------------------------------------------|-------------------|
 * | 429, 5xx, refused/reset connection, timeout, cut stream,   | retry             |
 * | malformed chunk, error frame, not an event stream          |                   |
 * | 401, 403                                                   | next_target       |
 * | `context_length_exceeded`                                  | context_fallback  |
 * | content filter, any other 4xx, anything not an upstream's  | give_up           |
 */
export function failureAction(error: unknown): FailureAction {
  if (!(error instanceof UpstreamError)) return 'give_up';
  if (error.kind === 'unauthorized') return 'next_target';
  if (error.kind !== 'bad_status') return 'retry';
  const status = error.status ?? 0;
  if (status >= 500) return 'retry';
  if (error.upstreamCode === 'context_length_exceeded' || CONTEXT_LENGTH.test(error.message)) return 'context_fallback';
  return 'give_up';
}

/** Whether a failure says something about the upstream's health (and counts toward its breaker). */
export function countsAgainstUpstream(error: unknown): boolean {
  const action = failureAction(error);
  return action === 'retry' || action === 'next_target';
}
