/**
 * The events of a `text/event-stream` body, read with its reader: `{ id, event, data }` each.
 * Comment lines (keepalives) are skipped. Cancels the body when the consumer stops early.
 */
export async function* readSse(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let frame = { id: undefined, event: 'message', data: [] };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      const lines = buffer.split('\n');
      buffer = lines.pop();
      for (const raw of lines) {
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        if (line === '') {
          if (frame.data.length > 0) yield { id: frame.id, event: frame.event, data: frame.data.join('\n') };
          frame = { id: frame.id, event: 'message', data: [] };
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
        if (field === 'data') frame.data.push(text);
        else if (field === 'event') frame.event = text;
        else if (field === 'id') frame.id = text;
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
