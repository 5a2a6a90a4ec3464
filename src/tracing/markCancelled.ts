import type { Span } from '@opentelemetry/api';

/** The interrupt reasons that say the client went away (the rest: a stop, a shutdown, a limit). */
const CLIENT_LEFT = new Set(['SSE client disconnected', 'SSE client too slow']);

/**
 * Ends a span whose work was cancelled, now: an event `rxgate.client_disconnected` (or
 * `rxgate.interrupted` when the server ended it) with the interrupt reason, and no error status,
 * as a deliberate cancel is not an error.
 */
export function markCancelled(span: Span, reason = 'SSE client disconnected'): void {
  span.addEvent(CLIENT_LEFT.has(reason) ? 'rxgate.client_disconnected' : 'rxgate.interrupted', { 'rxgate.interrupt_reason': reason });
  span.setAttribute('rxgate.interrupt_reason', reason);
  span.end();
}
