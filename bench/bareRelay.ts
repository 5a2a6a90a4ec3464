import { createParser } from 'eventsource-parser';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' };

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** Opens the upstream stream for a client's chat request; aborted when the client's response closes. */
export async function openUpstreamFor(upstreamUrl: string, req: IncomingMessage, res: ServerResponse): Promise<ReadableStreamDefaultReader<string> | undefined> {
  const controller = new AbortController();
  res.once('close', () => controller.abort());
  const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
  const response = await fetch(`${upstreamUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ ...body, stream: true }),
    signal: controller.signal,
  });
  return response.body?.pipeThrough(new TextDecoderStream()).getReader();
}

/**
 * The floor rxgate is compared with: parse the upstream's SSE with eventsource-parser,
 * re-serialise each frame, write it. No validation, no backpressure, no keepalive, no metrics.
 */
export function bareRelay(upstreamUrl: string): RequestListener {
  return (req, res) => {
    void (async () => {
      const reader = await openUpstreamFor(upstreamUrl, req, res);
      res.writeHead(200, SSE_HEADERS);
      res.flushHeaders();
      const parser = createParser({
        onEvent({ data }) {
          res.write(data === '[DONE]' ? 'data: [DONE]\n\n' : `data: ${JSON.stringify(JSON.parse(data))}\n\n`);
        },
      });
      for (;;) {
        const { done, value } = await reader!.read();
        if (done) break;
        parser.feed(value);
      }
      res.end();
    })().catch(() => res.destroy());
  };
}
