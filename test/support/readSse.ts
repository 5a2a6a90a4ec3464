/** Reads a fetch body as text until `stop` says enough (or the body ends); returns what was read. */
export async function readUntil(body: ReadableStream<Uint8Array>, stop: (text: string) => boolean): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!stop(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text;
}

/** The JSON payloads of the `data:` frames of an SSE text, `[DONE]` as a string. */
export function dataFrames(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => frame.slice('data: '.length))
    .map((data) => (data === '[DONE]' ? data : JSON.parse(data)));
}
