import { loggedEventFrame, toLoggedEvent } from '../detached/loggedEvent.js';
import type { ResponseStreamEvent } from './responseObject.js';

/** One Responses API event on the wire: `event: <type>`, `id: <sequence_number>`, the event as data. */
export function responseFrame(event: ResponseStreamEvent): string {
  return loggedEventFrame(toLoggedEvent(event, event.sequence_number));
}
