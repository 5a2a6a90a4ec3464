import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { startServer, type RunningServer } from '../../../src/http/startServer.js';
import { finish, say, ScriptedAgent } from '../../support/scriptedAgent.js';
import { chunked, exchange, postHead } from './support/rawHttp.js';

// Hostile requests, generated and hand-made: every one gets a 4xx OpenAI envelope or a valid
// answer, never a 5xx, and the server stays healthy throughout.

const MAX_BODY = 64 * 1024;
const HEADERS_TIMEOUT_MS = 300;
const REQUEST_TIMEOUT_MS = 600;

let running: RunningServer;
beforeAll(async () => {
  const config = loadConfig({
    RXGATE_PORT: '0',
    RXGATE_MAX_BODY_BYTES: String(MAX_BODY),
    RXGATE_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    RXGATE_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
  });
  running = await startServer({ agent: new ScriptedAgent([say('ok'), finish()]), config });
});
afterAll(async () => running.shutdown(0));

interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

async function post(body: string | Uint8Array, contentType: string | undefined = 'application/json'): Promise<Answer> {
  const response = await fetch(`${running.url}/v1/chat/completions`, {
    method: 'POST',
    headers: contentType === undefined ? {} : { 'content-type': contentType },
    body,
  });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
}

/** The invariant: a 4xx with an OpenAI error envelope, or a complete valid answer. */
function expectWellFormed({ status, contentType, text }: Answer): void {
  expect(status, text).toBeLessThan(500);
  if (status >= 400) {
    const { error } = JSON.parse(text) as { error: Record<string, unknown> };
    expect(error).toEqual({
      message: expect.any(String),
      type: expect.any(String),
      param: expect.toBeOneOf([null, expect.any(String)]),
      code: expect.toBeOneOf([null, expect.any(String)]),
    });
    return;
  }
  expect(status).toBe(200);
  if (contentType.startsWith('text/event-stream')) {
    expect(text).toContain('"finish_reason":"stop"');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  } else {
    expect(JSON.parse(text)).toMatchObject({ object: 'chat.completion', choices: [{ message: { content: 'ok' }, finish_reason: 'stop' }] });
  }
}

async function expectHealthy(): Promise<void> {
  const response = await fetch(`${running.url}/health`);
  expect(response.status).toBe(200);
}

const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.string(), fc.constant(undefined));
const role = fc.oneof(fc.constantFrom('system', 'user', 'assistant', 'tool', 'developer'), anyValue);
const message = fc.record(
  {
    role,
    content: fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.array(fc.record({ type: fc.oneof(fc.constant('text'), anyValue), text: anyValue }), { maxLength: 3 }),
      anyValue,
    ),
  },
  { requiredKeys: [] },
);
const chatRequest = fc.record(
  {
    model: fc.oneof(fc.string({ maxLength: 40 }), anyValue),
    messages: fc.oneof(fc.array(message, { maxLength: 4 }), anyValue),
    stream: fc.oneof(fc.boolean(), anyValue),
    stream_options: fc.oneof(fc.record({ include_usage: fc.oneof(fc.boolean(), anyValue) }), anyValue),
    temperature: anyValue,
  },
  { requiredKeys: [] },
);
const contentTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  undefined,
);

describe('generated hostile bodies', () => {
  it('random JSON values: a 4xx envelope or a valid answer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), async (value) => expectWellFormed(await post(JSON.stringify(value)))),
      { numRuns: 100 },
    );
    await expectHealthy();
  });

  it('chat requests with wrong types anywhere: a 4xx envelope or a valid answer', async () => {
    await fc.assert(
      fc.asyncProperty(chatRequest, contentTypes, async (request, contentType) =>
        expectWellFormed(await post(JSON.stringify(request), contentType)),
      ),
      { numRuns: 150 },
    );
    await expectHealthy();
  });

  it('random bytes (invalid UTF-8 included) under any content type: a 4xx envelope or a valid answer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), contentTypes, async (bytes, contentType) =>
        expectWellFormed(await post(bytes, contentType)),
      ),
      { numRuns: 100 },
    );
    await expectHealthy();
  });

  it('valid requests truncated anywhere: a 4xx envelope', async () => {
    const full = JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hello there' }] });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: full.length - 1 }), async (cut) => {
        const answer = await post(full.slice(0, cut));
        expectWellFormed(answer);
        expect(answer.status).toBe(400);
      }),
      { numRuns: 60 },
    );
  });
});

describe('hand-made hostile bodies', () => {
  const valid = (content: unknown) => JSON.stringify({ model: 'm', messages: [{ role: 'user', content }] });

  it('deep nesting, in the body and in a message', async () => {
    const depth = 20_000;
    expectWellFormed(await post(`${'['.repeat(depth)}${']'.repeat(depth)}`));
    expectWellFormed(await post(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));
    expectWellFormed(await post(`{"model":"m","messages":[{"role":"user","content":${'['.repeat(depth)}${']'.repeat(depth)}}]}`));
    await expectHealthy();
  });

  it('huge strings just under the limit, and a huge model name', async () => {
    const answer = await post(valid('x'.repeat(MAX_BODY - 200)));
    expectWellFormed(answer);
    expect(answer.status).toBe(200);
    expectWellFormed(await post(JSON.stringify({ model: 'm'.repeat(MAX_BODY - 200), messages: [{ role: 'user', content: 'hi' }] })));
  });

  it('invalid UTF-8 inside a JSON string, and a charset that is not UTF-8', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"model":"m","messages":[{"role":"user","content":"'),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
      Buffer.from('"}]}'),
    ]);
    expectWellFormed(await post(bytes));
    const latin1 = await post(valid('hi'), 'application/json; charset=latin1');
    expectWellFormed(latin1);
    expect(latin1.status).toBe(415);
  });

  it('a Content-Encoding the body does not decompress with, or that is unknown: a 4xx envelope', async () => {
    for (const encoding of ['br', 'gzip', 'deflate', 'zstd', 'x-unknown']) {
      const response = await fetch(`${running.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body: valid('hi'),
      });
      const answer = { status: response.status, contentType: '', text: await response.text() };
      expectWellFormed(answer);
      expect(answer.status).toBeGreaterThanOrEqual(400);
    }
    await expectHealthy();
  });

  it('a body over the limit: 413 with Content-Length, and without (chunked)', async () => {
    const big = valid('x'.repeat(MAX_BODY));
    const withLength = await post(big);
    expectWellFormed(withLength);
    expect(withLength.status).toBe(413);

    const parts = [postHead(undefined), ...Array.from({ length: 10 }, () => chunked('x'.repeat(MAX_BODY / 8))), '0\r\n\r\n'];
    const withoutLength = await exchange(running.url, parts, { waitMs: 500 });
    expect(withoutLength.status).toBe(413);
    expect(withoutLength.text).toContain('"code":"body_too_large"');
    await expectHealthy();
  });

  it('a body shorter than its Content-Length: a 4xx once the client gives up or the request times out', async () => {
    const body = valid('hi');
    const halfClosed = await exchange(running.url, [postHead(body.length + 10), body], { halfClose: true });
    // Node answers this one itself (400) before the app sees a request.
    expect(halfClosed.status === undefined || halfClosed.status < 500, halfClosed.text).toBe(true);
    const waiting = await exchange(running.url, [postHead(body.length + 10), body], { waitMs: REQUEST_TIMEOUT_MS + 2_000 });
    expect(waiting.closed).toBe(true);
    expect(waiting.status).toBe(408);
    await expectHealthy();
  });
});

describe('slowloris', () => {
  it('refuses a headers timeout longer than the request timeout at start-up', () => {
    expect(() => loadConfig({ RXGATE_HEADERS_TIMEOUT_MS: '5000', RXGATE_REQUEST_TIMEOUT_MS: '1000' })).toThrow(
      /RXGATE_HEADERS_TIMEOUT_MS must not exceed RXGATE_REQUEST_TIMEOUT_MS/,
    );
  });

  it('headers trickled a byte at a time are cut off after the headers timeout, and /health answers meanwhile', async () => {
    const head = postHead(20);
    const slow = exchange(running.url, [...head], { gapMs: 50, waitMs: 5_000 });
    await expectHealthy();
    const answer = await slow;
    expect(answer.closed).toBe(true);
    expect(answer.status === undefined || answer.status === 408).toBe(true);
    expect(running.server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
  });

  it('a body trickled a byte at a time is cut off after the request timeout with 408', async () => {
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(200) }] });
    const answer = await exchange(running.url, [postHead(body.length), ...body], { gapMs: 20, waitMs: 5_000 });
    expect(answer.closed).toBe(true);
    expect(answer.status).toBe(408);
    expect(running.server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
    await expectHealthy();
  });
});
