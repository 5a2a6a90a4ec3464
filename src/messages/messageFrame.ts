import { serializeFrame } from '../sse/serializeFrame.js';
import { jsonString } from '../wire/jsonString.js';
import type { MessageStreamEvent } from './messageObjects.js';

/** A text delta with exactly the encoder's fields, whose frame needs only its text serialised. */
function isPlainTextDelta(event: MessageStreamEvent): event is Extract<MessageStreamEvent, { type: 'content_block_delta' }> {
  return (
    event.type === 'content_block_delta' &&
    typeof event.index === 'number' &&
    event.delta.type === 'text_delta' &&
    typeof event.delta.text === 'string' &&
    Object.keys(event).length === 3 &&
    Object.keys(event.delta).length === 2
  );
}

/**
 * One event of Anthropic's stream on the wire: `event: <type>`, then the event as data. A text
 * delta the encoder made (nearly every frame) has only its text serialised.
 *
 * @example
 * messageFrame({ type: 'message_stop' }) // 'event: message_stop\ndata: {"type":"message_stop"}\n\n'
 */
export function messageFrame(event: MessageStreamEvent): string {
  if (isPlainTextDelta(event)) {
    const { text } = event.delta as { text: string };
    return `event: content_block_delta\ndata: {"type":"content_block_delta","index":${event.index},"delta":{"type":"text_delta","text":${jsonString(text)}}}\n\n`;
  }
  return serializeFrame({ event: event.type, data: JSON.stringify(event) });
}
