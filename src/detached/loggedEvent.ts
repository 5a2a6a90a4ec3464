import { serializeFrame } from '../sse/serializeFrame.js';

/** One event of a detached run's log: `seq` orders it (and is its SSE id), `data` is its JSON. */
export interface LoggedEvent {
  readonly seq: number;
  readonly type: string;
  readonly data: string;
}

/** A Responses or Runs event as the log keeps it. */
export function toLoggedEvent(event: { readonly type: string }, seq: number): LoggedEvent {
  return { seq, type: event.type, data: JSON.stringify(event) };
}

/** A logged event on the wire: `event: <type>`, `id: <seq>`, its JSON as data. */
export function loggedEventFrame({ type, seq, data }: LoggedEvent): string {
  return serializeFrame({ event: type, id: String(seq), data });
}
