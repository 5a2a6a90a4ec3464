import { serializeFrame } from '../sse/serializeFrame.js';
import type { LoggedEvent } from '../store/EventLog.js';

export type { LoggedEvent };

/** A Responses or Runs event as the log keeps it. */
export function toLoggedEvent(event: { readonly type: string }, seq: number): LoggedEvent {
  return { seq, type: event.type, data: JSON.stringify(event) };
}

/** A logged event on the wire: `event: <type>`, `id: <seq>`, its JSON as data. */
export function loggedEventFrame({ type, seq, data }: LoggedEvent): string {
  return serializeFrame({ event: type, id: String(seq), data });
}
