export interface SseEvent {
  readonly event?: string;
  readonly id?: string;
  readonly data: string;
}

/** The events of an SSE body as they arrive (comments skipped), until the body ends or the caller stops. */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
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
}
