import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { startServer, type RunningServer } from '../../../src/http/startServer.js';
import { ManualAgent } from '../../support/manualAgent.js';
import { collect, exchange, openSocket, received, type RawExchange } from './support/rawHttp.js';

// What Node's HTTP parser and timeouts refuse before the app sees a request still answers with
// the OpenAI envelope, as a whole HTTP/1.1 response that closes the connection.

const HEADERS_TIMEOUT_MS = 300;

let running: RunningServer;
const agent = new ManualAgent();
beforeAll(async () => {
  const config = loadConfig({
    RXGATE_PORT: '0',
    RXGATE_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    RXGATE_REQUEST_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS * 2),
  });
  running = await startServer({ agent, config });
});
afterAll(async () => running.shutdown(0));

/** The status, the headers (lower-cased names) and the parsed body of a raw exchange's one response. */
function parse({ text }: RawExchange) {
  const [head = '', body = ''] = text.split('\r\n\r\n', 2);
  const [statusLine = '', ...fields] = head.split('\r\n');
  const headers = Object.fromEntries(fields.map((field) => field.split(/:\s*/, 2).map((part, i) => (i === 0 ? part.toLowerCase() : part))));
  return { statusLine, headers: headers as Record<string, string>, body: JSON.parse(body) as unknown };
}

function expectEnvelope(answer: RawExchange, status: number, code: string): void {
  expect(answer.closed).toBe(true);
  const { statusLine, headers, body } = parse(answer);
  expect(statusLine).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
  expect(headers['content-type']).toBe('application/json');
  expect(headers.connection).toBe('close');
  expect(Number(headers['content-length'])).toBe(Buffer.byteLength(answer.text.split('\r\n\r\n', 2)[1]!));
  expect(body).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', param: null, code } });
}

describe('requests Node refuses itself', () => {
  it('a malformed request line: 400 with the envelope', async () => {
    expectEnvelope(await exchange(running.url, ['GARBAGE / NOT-HTTP\r\n\r\n']), 400, 'bad_http_request');
  });

  it('a duplicate Content-Length: 400 with the envelope', async () => {
    const head = 'POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}';
    expectEnvelope(await exchange(running.url, [head]), 400, 'bad_http_request');
  });

  it('Transfer-Encoding with Content-Length: 400 with the envelope', async () => {
    const head =
      'POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 7\r\n\r\n2\r\n{}\r\n0\r\n\r\n';
    expectEnvelope(await exchange(running.url, [head]), 400, 'bad_http_request');
  });

  it('headers over the limit: 431 with the envelope', async () => {
    const head = `GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: ${'x'.repeat(20 * 1024)}\r\n\r\n`;
    expectEnvelope(await exchange(running.url, [head]), 431, 'headers_too_large');
  });

  it('headers that never end: 408 with the envelope after the headers timeout', async () => {
    const answer = await exchange(running.url, ['GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n'], { waitMs: HEADERS_TIMEOUT_MS + 3_000 });
    expectEnvelope(answer, 408, 'request_timeout');
  });

  it('writes nothing into a response that has started: garbage pipelined after a streaming request just closes', async () => {
    const socket = await openSocket(running.url);
    const answer = collect(socket, 3_000);
    const body = JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'hi' }] });
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    const streaming = received(socket, '"content":"streaming"');
    const run = await agent.started(0);
    run.events.next({ type: 'text', delta: 'streaming' });
    // The response has started on the wire before the garbage comes.
    await streaming;
    socket.write('GARBAGE\r\n\r\n');
    const { text, closed } = await answer;

    expect(closed).toBe(true);
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).toContain('"content":"streaming"');
    expect(text).not.toContain('HTTP/1.1 400');
    expect(text).not.toContain('bad_http_request');
  });
});
