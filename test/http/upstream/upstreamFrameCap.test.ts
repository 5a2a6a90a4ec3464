import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Cancellation } from '../../../src/agent/cancellation.js';
import { createFrameMeter } from '../../../src/upstream/createFrameMeter.js';
import { createLlmAgent } from '../../../src/agent/llm/createLlmAgent.js';
import { loadConfig } from '../../../src/config.js';
import { createAgentFor } from '../../../src/createAgentFor.js';
import { toOpenAIError } from '../../../src/errors/toOpenAIError.js';
import { UpstreamError } from '../../../src/errors/UpstreamError.js';
import { silentLogger } from '../../../src/logger.js';
import { collectRun, textOf } from '../../support/collectRun.js';
import { createScriptedUpstream, frames } from '../../support/scriptedUpstream.js';

const QUESTION = { model: 'rxgate-agent', messages: [{ role: 'user' as const, content: 'hello' }] };
const MiB = 1024 * 1024;
// Far past any cap under test: an unfixed gateway buffers all of it, then reports the body's end as `dropped`.
const GIVE_UP_BYTES = 64 * MiB;

interface Flood {
  readonly baseUrl: string;
  /** Resolves when the upstream's socket closed, with the bytes the upstream had written by then. */
  readonly closed: Promise<number>;
  close(): Promise<void>;
}

/**
 * A raw upstream that answers 200 `text/event-stream`, then `prefix` and `piece` over and over,
 * as fast as the client reads (it waits for 'drain'), up to GIVE_UP_BYTES; it counts what it wrote.
 */
async function floodingUpstream(prefix: string, piece: string): Promise<Flood> {
  let reportClosed!: (written: number) => void;
  const closed = new Promise<number>((resolve) => (reportClosed = resolve));
  const server: Server = createServer((req, res) => {
    req.resume();
    let written = 0;
    res.once('close', () => reportClosed(written));
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const pump = (): void => {
      let text = written === 0 ? prefix : '';
      while (!res.destroyed && written < GIVE_UP_BYTES) {
        text += piece;
        const ok = res.write(text);
        written += Buffer.byteLength(text);
        text = '';
        if (!ok) {
          res.once('drain', pump);
          return;
        }
      }
      if (!res.destroyed) res.end();
    };
    pump();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    closed,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

let flood: Flood | undefined;
afterEach(async () => {
  await flood?.close();
  flood = undefined;
});

const PIECE = 'x'.repeat(16 * 1024);

describe('an upstream frame larger than the cap', () => {
  it.each([
    ['one endless line', 'data: ', PIECE],
    ['endless data: lines with no blank line', '', `data: ${PIECE}\n`],
    ['an endless comment line', ': ', PIECE],
    ['an endless field name', '', PIECE],
  ])(
    '%s: malformed_frame once past the default 1 MiB, the socket closed, and no more than a few MiB sent',
    async (_name, prefix, piece) => {
      flood = await floodingUpstream(prefix, piece);
      const agent = createLlmAgent({ baseUrl: flood.baseUrl, model: 'up' });
      const { events, error } = await collectRun(agent.run(QUESTION, new Cancellation()));

      expect(events).toEqual([]);
      expect(error).toBeInstanceOf(UpstreamError);
      expect(error).toMatchObject({ kind: 'malformed_frame', message: expect.stringContaining('more than 1048576 bytes') });
      expect(toOpenAIError(error).body.error.code).toBe('upstream_malformed_frame');
      const written = await flood.closed;
      // The upstream writes until the sockets' buffers are full (about 4 MiB on loopback here) and the
      // gateway reads about the cap before it hangs up; without a cap it reads all GIVE_UP_BYTES.
      expect(written).toBeGreaterThan(MiB);
      expect(written).toBeLessThan(8 * MiB);
    },
  );

  it('honours RXGATE_UPSTREAM_MAX_FRAME_BYTES, through createAgentFor', async () => {
    flood = await floodingUpstream('data: ', PIECE);
    const config = loadConfig({
      RXGATE_UPSTREAM_URL: flood.baseUrl,
      RXGATE_UPSTREAM_MODEL: 'up',
      RXGATE_UPSTREAM_MAX_FRAME_BYTES: '65536',
    });
    const { error } = await collectRun(createAgentFor(config, silentLogger).run(QUESTION, new Cancellation()));

    expect(error).toMatchObject({
      kind: 'malformed_frame',
      message: expect.stringMatching(/more than 65536 bytes .*RXGATE_UPSTREAM_MAX_FRAME_BYTES/),
    });
    expect(await flood.closed).toBeLessThan(8 * MiB);
  });

  it('counts from the last blank line: many small frames add up to far more than the cap', async () => {
    const texts = Array.from({ length: 200 }, (_, i) => `word${i} `.padEnd(100, '.'));
    const upstream = await createScriptedUpstream([
      {
        steps: [
          frames.role(),
          ...texts.flatMap((text) => [frames.text(text), { raw: ': keepalive\r\n\r\n' }]),
          frames.finish('stop'),
          frames.done(),
        ],
      },
    ]);
    try {
      const agent = createLlmAgent({ baseUrl: upstream.baseUrl, model: 'up', maxFrameBytes: 1024 });
      const { events, error } = await collectRun(agent.run(QUESTION, new Cancellation()));

      expect(error).toBeUndefined();
      expect(textOf(events)).toBe(texts.join(''));
    } finally {
      await upstream.close();
    }
  });

  it('a frame just under the cap passes', async () => {
    const text = 'y'.repeat(4000);
    const upstream = await createScriptedUpstream([{ steps: [frames.text(text), frames.finish('stop'), frames.done()] }]);
    try {
      const frameBytes = Buffer.byteLength(
        `data: ${JSON.stringify({ id: 'chatcmpl-up', object: 'chat.completion.chunk', created: 1, model: 'up', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`,
      );
      const agent = createLlmAgent({ baseUrl: upstream.baseUrl, model: 'up', maxFrameBytes: frameBytes });
      const { events, error } = await collectRun(agent.run(QUESTION, new Cancellation()));

      expect(error).toBeUndefined();
      expect(textOf(events)).toBe(text);
    } finally {
      await upstream.close();
    }
  });
});

describe('RXGATE_UPSTREAM_MAX_FRAME_BYTES', () => {
  it('defaults to 1 MiB and must be a positive integer', () => {
    expect(loadConfig({}).upstreamMaxFrameBytes).toBe(1_048_576);
    expect(loadConfig({ RXGATE_UPSTREAM_MAX_FRAME_BYTES: '4096' }).upstreamMaxFrameBytes).toBe(4096);
    expect(() => loadConfig({ RXGATE_UPSTREAM_MAX_FRAME_BYTES: '0' })).toThrow(/RXGATE_UPSTREAM_MAX_FRAME_BYTES="0"/);
    expect(() => loadConfig({ RXGATE_UPSTREAM_MAX_FRAME_BYTES: 'big' })).toThrow(/RXGATE_UPSTREAM_MAX_FRAME_BYTES="big"/);
  });
});

describe('createFrameMeter', () => {
  const bytes = (text: string) => Buffer.from(text);

  it('measures the frame since the last blank line, across chunks', () => {
    const meter = createFrameMeter();
    expect(meter(bytes('data: a\n\ndata: bc'))).toBe(9);
    expect(meter(bytes('d'))).toBe(9);
    expect(meter(bytes('\n'))).toBe(10);
    expect(meter(bytes('\n'))).toBe(11);
    expect(meter(bytes('x'))).toBe(1);
  });

  it.each([
    ['LF', '\n\n'],
    ['CR', '\r\r'],
    ['CRLF', '\r\n\r\n'],
    ['CRLF split across chunks', '\r|\n\r|\n'],
    ['LF then CRLF', '\n\r\n'],
    ['CRLF then LF', '\r\n\n'],
  ])('ends a frame at a blank line of %s', (_name, blankLine) => {
    const meter = createFrameMeter();
    for (const part of `data: ${'a'.repeat(100)}${blankLine}`.split('|')) meter(bytes(part));
    // What follows is a new frame: at most the blank line's last LF, and the new byte.
    expect(meter(bytes('x'))).toBeLessThanOrEqual(2);
  });

  it('does not end a frame at a CRLF that ends a line', () => {
    const meter = createFrameMeter();
    expect(meter(bytes('data: a\r\ndata: b\r\n'))).toBe(18);
  });

  it('given a limit, answers as the exact meter does past it, and at most the limit, never less than the exact size, below it', () => {
    // A seeded generator (a 32-bit linear congruential one, exact in integer arithmetic): the same streams on every run.
    let seed = 26;
    const random = () => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0) / 4_294_967_296;
    const pieces = ['data: ', 'abc', 'é', '\n', '\n\n', '\r', '\r\n', 'x'.repeat(40)];
    for (let stream = 0; stream < 300; stream++) {
      let text = '';
      while (text.length < 600) text += pieces[Math.floor(random() * (random() < 0.9 ? 6 : pieces.length))];
      const limit = 20 + Math.floor(random() * 100);
      const exact = createFrameMeter();
      const bounded = createFrameMeter(limit);
      const all = bytes(text);
      for (let at = 0; at < all.length;) {
        const end = Math.min(all.length, at + 1 + Math.floor(random() * 60));
        const chunk = all.subarray(at, end);
        const [want, got] = [exact(chunk), bounded(chunk)];
        if (want > limit) expect(got, JSON.stringify(text)).toBe(want);
        else expect(got, JSON.stringify(text)).toSatisfy((answer: number) => answer >= want && answer <= limit);
        at = end;
      }
    }
  });
});
