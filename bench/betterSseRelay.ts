import { createSession } from 'better-sse';
import type { RequestListener } from 'node:http';
import { openUpstreamFor, relayFrames } from './bareRelay.js';

/**
 * The same relay on better-sse: each upstream frame is parsed and pushed with `session.push`,
 * the library's idiomatic call (which adds `event: message` and a random `id:` line per frame).
 */
export function betterSseRelay(upstreamUrl: string): RequestListener {
  return (req, res) => {
    void (async () => {
      const upstream = await openUpstreamFor(upstreamUrl, req, res);
      const session = await createSession(req, res);
      await relayFrames(upstream, (data) => session.push(data === '[DONE]' ? '[DONE]' : JSON.parse(data)));
      res.end();
    })().catch(() => res.destroy());
  };
}
