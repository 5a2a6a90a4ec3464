import { SseFrameError } from '../errors/SseFrameError.js';

/** One Server-Sent Event before serialisation. */
export interface SseMessage {
  readonly data: string;
  readonly event?: string;
  readonly id?: string;
  /** Reconnection delay the client should use, in milliseconds. */
  readonly retry?: number;
}

const LINE_BREAK = /[\r\n]/;

function singleLine(field: 'event' | 'id', value: string): string {
  if (LINE_BREAK.test(value)) {
    throw new SseFrameError(`an SSE ${field} must be one line, got ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * The wire bytes of one event: `event:`/`id:`/`retry:` first, then one `data:` line per line of
 * data, then a blank line. A newline inside `event` or `id` throws instead of breaking the frame.
 */
export function serializeFrame({ data, event, id, retry }: SseMessage): string {
  let frame = '';
  if (event !== undefined) frame += `event: ${singleLine('event', event)}\n`;
  if (id !== undefined) frame += `id: ${singleLine('id', id)}\n`;
  if (retry !== undefined) {
    if (!Number.isInteger(retry) || retry < 0) throw new SseFrameError(`an SSE retry must be a whole number of ms, got ${retry}`);
    frame += `retry: ${retry}\n`;
  }
  // JSON never holds a raw line break, so the common frame is one line and needs no split.
  if (!LINE_BREAK.test(data)) return `${frame}data: ${data}\n\n`;
  for (const line of data.split(/\r\n|\r|\n/)) frame += `data: ${line}\n`;
  return `${frame}\n`;
}

/** An SSE comment: clients ignore it, proxies see traffic. */
export function serializeComment(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
}
