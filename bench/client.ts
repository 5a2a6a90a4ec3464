import { Agent, request, type Dispatcher } from 'undici';

/** A real HTTP client with no cap on connections per origin; `options` override its defaults (its timeouts, say). */
export function createClient(options: Agent.Options = {}): Agent {
  return new Agent({ connections: null, pipelining: 1, keepAliveTimeout: 4_000, headersTimeout: 60_000, bodyTimeout: 60_000, ...options });
}

export type Posted = Dispatcher.ResponseData;

/** `close`: ask for the connection to be closed after the response, so that a finished stream leaves no idle socket behind. `headers`: besides the content type. */
export function postChat(
  dispatcher: Agent,
  origin: string,
  body: string,
  signal?: AbortSignal,
  close = false,
  headers: Record<string, string> = {},
): Promise<Posted> {
  return request(`${origin}/v1/chat/completions`, {
    method: 'POST',
    dispatcher,
    signal,
    reset: close,
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

/** Counts SSE frame ends (blank lines) in a stream of buffers without decoding it. */
export function createFrameCounter(): { feed(buffer: Buffer): void; readonly count: number } {
  let count = 0;
  let lastWasNewline = false;
  return {
    feed(buffer) {
      if (buffer.length === 0) return;
      if (lastWasNewline && buffer[0] === 0x0a) count++;
      let at = buffer.indexOf('\n\n');
      while (at !== -1) {
        count++;
        at = buffer.indexOf('\n\n', at + 2);
      }
      lastWasNewline = buffer[buffer.length - 1] === 0x0a;
    },
    get count() {
      return count;
    },
  };
}

/** The `data` of each SSE frame in a complete text (rxgate, the bare relay and better-sse all end frames with a blank line). */
export function dataOf(text: string): string[] {
  return text
    .split('\n\n')
    .map((frame) =>
      frame
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n'),
    )
    .filter((data) => data !== '');
}

/** The text a Chat Completions stream carried, and whether it ended cleanly (finish_reason "stop", then [DONE]). */
export function answerOf(text: string): { content: string; clean: boolean } {
  let content = '';
  let finished = false;
  let done = false;
  for (const data of dataOf(text)) {
    if (data === '[DONE]' || data === '"[DONE]"') {
      done = true;
      continue;
    }
    const chunk = JSON.parse(data) as { choices?: { delta?: { content?: string }; finish_reason?: string | null }[] };
    for (const choice of chunk.choices ?? []) {
      content += choice.delta?.content ?? '';
      if (choice.finish_reason === 'stop') finished = true;
    }
  }
  return { content, clean: finished && done };
}

/** One request, from the call to the last byte of the body, in ms. */
export async function timeOne(client: Agent, origin: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  const response = await postChat(client, origin, body, undefined, false, headers);
  await response.body.dump({ limit: Number.MAX_SAFE_INTEGER });
  if (response.statusCode !== 200) throw new Error(`${origin} answered ${response.statusCode}`);
  return performance.now() - started;
}
