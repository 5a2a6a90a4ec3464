export interface SseEvent {
  readonly event?: string;
  readonly id?: string;
  readonly data: string;
}

/**
 * The events of an SSE body as they arrive (comments skipped), until the body ends or the caller
 * stops (which cancels the body). The body is locked at once, not at the first read: undici
 * cancels the untouched body of a `Response` that is garbage-collected, so a caller that keeps only
 * the body would otherwise see it end empty.
 */
export function sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  return eventsOf(body.getReader());
}

async function* eventsOf(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let done = false;
  try {
    for (;;) {
      const read = await reader.read();
      if (read.done) break;
      buffer += decoder.decode(read.value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields: Record<string, string> = {};
        for (const line of frame.split('\n')) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          fields[line.slice(0, colon)] = line.slice(colon + 2);
        }
        if (fields.data !== undefined) yield { event: fields.event, id: fields.id, data: fields.data };
      }
    }
    done = true;
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
  }
}
