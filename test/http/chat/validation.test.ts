import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finish, say, ScriptedAgent } from '../../support/scriptedAgent.js';
import { startApp, type TestApp } from '../../support/startApp.js';

let app: TestApp;
beforeAll(async () => {
  app = await startApp(new ScriptedAgent([say('ok'), finish()]), { maxBodyBytes: 100_000 });
});
afterAll(async () => app.close());

const user = { role: 'user', content: 'hi' };
const cases: [name: string, body: unknown, status: number, param: string | null, code: string][] = [
  ['a body that is not an object', [1, 2], 400, null, 'invalid_body'],
  ['no messages', { model: 'm' }, 400, 'messages', 'missing_required_parameter'],
  ['messages not an array', { messages: 'hi' }, 400, 'messages', 'invalid_value'],
  ['empty messages', { messages: [] }, 400, 'messages', 'invalid_value'],
  ['a message that is not an object', { messages: [user, 'hi'] }, 400, 'messages[1]', 'invalid_value'],
  ['an unknown role', { messages: [user, { role: 'wizard', content: 'x' }] }, 400, 'messages[1].role', 'invalid_value'],
  ['content of the wrong type', { messages: [user, user, { role: 'user', content: 42 }] }, 400, 'messages[2].content', 'invalid_value'],
  [
    'a content part of an unknown type',
    { messages: [{ role: 'user', content: [{ type: 'audio' }] }] },
    400,
    'messages[0].content[0].type',
    'invalid_value',
  ],
  ['no user content at all', { messages: [{ role: 'system', content: 'be nice' }] }, 400, 'messages', 'invalid_value'],
  ['only blank user content', { messages: [{ role: 'user', content: '   ' }] }, 400, 'messages', 'invalid_value'],
  ['stream as the string "false"', { messages: [user], stream: 'false' }, 400, 'stream', 'invalid_value'],
  [
    'include_usage not a boolean',
    { messages: [user], stream: true, stream_options: { include_usage: 1 } },
    400,
    'stream_options.include_usage',
    'invalid_value',
  ],
  [
    'a text part over the 64 KiB cap',
    { messages: [{ role: 'user', content: [{ type: 'text', text: 'x'.repeat(70_000) }] }] },
    400,
    'messages[0].content[0].text',
    'invalid_value',
  ],
  [
    'more than 1000 parts',
    { messages: [{ role: 'user', content: Array.from({ length: 1001 }, () => ({ type: 'text', text: 'x' })) }] },
    400,
    'messages[0].content',
    'invalid_value',
  ],
];

async function post(body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const response = await fetch(`${app.url}/v1/chat/completions`, { method: 'POST', headers, body });
  return { status: response.status, body: (await response.json()) as { error: Record<string, unknown> } };
}

/** Sends a body in chunks, with no Content-Length (chunked transfer encoding). */
function postChunked(chunks: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${app.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res
        .setEncoding('utf8')
        .on('data', (chunk: string) => (body += chunk))
        .on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('input checking', () => {
  it.each(cases)('rejects %s with an OpenAI error envelope', async (_name, body, status, param, code) => {
    const response = await post(JSON.stringify(body));

    expect(response.status).toBe(status);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param, code });
    expect(response.body.error.message).toEqual(expect.any(String));
  });

  it('rejects a body that is not JSON with 400 invalid_request_error', async () => {
    const response = await post('{"messages": [');

    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });
  });

  it('rejects a body over the limit with 413 body_too_large when Content-Length is sent', async () => {
    const response = await post(JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(120_000) }] }));

    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('body_too_large');
  });

  it('rejects a body over the limit with 413 body_too_large without Content-Length', async () => {
    const response = await postChunked(['{"messages":[{"role":"user","content":"', 'x'.repeat(60_000), 'y'.repeat(60_000), '"}]}']);

    expect(response.status).toBe(413);
    expect(JSON.parse(response.body).error.code).toBe('body_too_large');
  });

  it('reads a body sent without a JSON content type (curl -d) and ignores unknown fields', async () => {
    const response = await fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: JSON.stringify({ messages: [user], temperature: 0.2, frobnicate: true }),
    });

    expect(response.status).toBe(200);
    expect(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('ok');
  });

  it('answers unknown routes with a 404 envelope', async () => {
    const response = await fetch(`${app.url}/v1/nothing-here`);

    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unknown_url');
  });

  it('answers a path whose id is not valid percent-encoding with 400 bad_http_request, not a complaint about the body', async () => {
    for (const path of ['/v1/responses/%E0%A4%A', '/v1/runs/%zz/events', '/v1/conversations/ok/items/%']) {
      const response = await fetch(`${app.url}${path}`);

      expect(response.status, path).toBe(400);
      const { error } = (await response.json()) as { error: { code: string; message: string; type: string } };
      expect(error, path).toMatchObject({ type: 'invalid_request_error', code: 'bad_http_request' });
      expect(error.message, path).toMatch(/percent-encoding/);
    }
  });

  it('is still healthy after all of that', async () => {
    const response = await fetch(`${app.url}/health`);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});
