import { createSession } from 'better-sse';
import { createParser } from 'eventsource-parser';
import type { RequestListener } from 'node:http';
import { openUpstreamFor } from './bareRelay.js';

/**
 * The same relay on better-sse: each upstream frame is parsed and pushed with `session.push`,
 * the library's idiomatic call (which adds `event: message` and a random `id:` line per frame).
 */
export function betterSseRelay(upstreamUrl: string): RequestListener {
  return (req, res) => {
    void (async () => {
      const reader = await openUpstreamFor(upstreamUrl, req, res);
      const session = await createSession(req, res);
      const parser = createParser({
        onEvent({ data }) {
          session.push(data === '[DONE]' ? '[DONE]' : JSON.parse(data));
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
