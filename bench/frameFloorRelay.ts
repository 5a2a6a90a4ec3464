import type { RequestListener } from 'node:http';
import { holdsAt } from '../src/upstream/openaiChat/holdsAt.js';
import { StreamTextDecoder } from '../src/upstream/openaiChat/StreamTextDecoder.js';
import { openUpstreamFor } from './bareRelay.js';

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' };

// The bench upstream's text frame around its text, and the frame rxgate writes for it around the same text.
const TEXT_FRAME_HEAD =
  'data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":{"content":"';
const TEXT_FRAME_TAIL = '"},"finish_reason":null}]}';
const OUT_HEAD =
  'data: {"id":"chatcmpl-0123456789abcdef0123456789abcdef","object":"chat.completion.chunk","created":1700000000,"model":"bench","choices":[{"index":0,"delta":{"content":"';
const OUT_TAIL = '"},"logprobs":null,"finish_reason":null}]}\n\n';
/** A text that would need escaping or unescaping: its frame is passed on as it came. */
// eslint-disable-next-line no-control-regex -- JSON allows no control character unescaped in a string
const NEEDS_ESCAPING = /["\\\u0000-\u001f]/;

/**
 * The frame floor: the least a relay that reads each frame can do, for figure 2. It splits the
 * upstream's SSE into frames, and a text frame that matches the bench upstream's fixed bytes is
 * written anew around its text with rxgate's fields (no eventsource-parser, no `JSON.parse` or
 * `JSON.stringify`, no objects per frame); any other frame is passed on. One write per upstream read.
 * It knows the bench upstream's bytes in advance, as no gateway can: a bound, not a peer.
 */
export function frameFloorRelay(upstreamUrl: string): RequestListener {
  return (req, res) => {
    void (async () => {
      const upstream = await openUpstreamFor(upstreamUrl, req, res);
      res.writeHead(200, SSE_HEADERS);
      res.flushHeaders();
      const decoder = new StreamTextDecoder();
      let rest = '';
      for await (const bytes of upstream) {
        const text = rest + decoder.decode(bytes);
        let out = '';
        let at = 0;
        for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n', at)) {
          const frame = text.slice(at, end);
          at = end + 2;
          const content =
            holdsAt(frame, TEXT_FRAME_HEAD, 0) && holdsAt(frame, TEXT_FRAME_TAIL, frame.length - TEXT_FRAME_TAIL.length)
              ? frame.slice(TEXT_FRAME_HEAD.length, -TEXT_FRAME_TAIL.length)
              : undefined;
          out += content === undefined || NEEDS_ESCAPING.test(content) ? `${frame}\n\n` : `${OUT_HEAD}${content}${OUT_TAIL}`;
        }
        rest = text.slice(at);
        // Encoded here: a string write would first measure the concatenated frames (see `writeTo`).
        if (out !== '' && !res.write(Buffer.from(out))) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end();
    })().catch(() => res.destroy());
  };
}
