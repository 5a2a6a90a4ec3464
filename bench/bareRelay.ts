import { createParser } from 'eventsource-parser';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { request } from 'undici';

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' };

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Opens the upstream stream for a client's chat request with undici's `request`, as rxgate does;
 * aborted when the client's response closes.
 */
export async function openUpstreamFor(upstreamUrl: string, req: IncomingMessage, res: ServerResponse): Promise<AsyncIterable<Buffer>> {
  const controller = new AbortController();
  res.once('close', () => controller.abort());
  const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
  const response = await request(`${upstreamUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ ...body, stream: true }),
    signal: controller.signal,
  });
  return response.body;
}

/** Hands each SSE data payload of the upstream body to `onData`, in order, until the body ends. */
export async function relayFrames(upstream: AsyncIterable<Uint8Array>, onData: (data: string) => void): Promise<void> {
  const parser = createParser({ onEvent: ({ data }) => onData(data) });
  const decoder = new TextDecoder();
  for await (const bytes of upstream) parser.feed(decoder.decode(bytes, { stream: true }));
}

/**
 * The floor rxgate is compared with: parse the upstream's SSE with eventsource-parser,
 * re-serialise each frame, write it. No validation, no backpressure, no keepalive, no metrics.
 */
export function bareRelay(upstreamUrl: string): RequestListener {
  return (req, res) => {
    void (async () => {
      const upstream = await openUpstreamFor(upstreamUrl, req, res);
      res.writeHead(200, SSE_HEADERS);
      res.flushHeaders();
      await relayFrames(upstream, (data) => {
        res.write(data === '[DONE]' ? 'data: [DONE]\n\n' : `data: ${JSON.stringify(JSON.parse(data))}\n\n`);
      });
      res.end();
    })().catch(() => res.destroy());
  };
}
