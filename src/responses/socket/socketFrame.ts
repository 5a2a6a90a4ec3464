import type { ResponseStreamEvent } from '../../openai/responseObject.js';

/**
 * One Responses API event as a WebSocket message: the event's JSON, then a newline that
 * `SocketSink` cuts messages at (JSON text never holds a raw one), so that the writer's batching of
 * frames into one write still sends one message per event.
 */
export function socketFrame(event: ResponseStreamEvent): string {
  return `${JSON.stringify(event)}\n`;
}
