import type { RequestListener } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { request } from 'undici';

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' };

/**
 * The pipe floor: the least a Node relay can do. `node:http` in, undici `request` out with the
 * client's body passed through untouched, the upstream's bytes piped to the client as they come
 * (no parsing, no re-encoding), the upstream request destroyed when the client leaves.
 */
export function pipeRelay(upstreamUrl: string): RequestListener {
  return (req, res) => {
    const controller = new AbortController();
    res.once('close', () => controller.abort());
    void (async () => {
      const upstream = await request(`${upstreamUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: req,
        signal: controller.signal,
      });
      res.writeHead(upstream.statusCode, {
        ...SSE_HEADERS,
        'content-type': String(upstream.headers['content-type'] ?? SSE_HEADERS['content-type']),
      });
      res.flushHeaders();
      await pipeline(upstream.body, res);
    })().catch(() => res.destroy());
  };
}
