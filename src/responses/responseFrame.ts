import { serializeFrame } from '../sse/serializeFrame.js';
import type { ResponseStreamEvent } from '../openai/responseObject.js';

/** One Responses API event on the wire: `event: <type>`, `id: <sequence_number>`, the event as data. */
export function responseFrame(event: ResponseStreamEvent): string {
  return serializeFrame({ event: event.type, id: String(event.sequence_number), data: JSON.stringify(event) });
}
