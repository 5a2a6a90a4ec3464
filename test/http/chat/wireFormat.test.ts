import { afterEach, describe, expect, it } from 'vitest';
import { once } from 'node:events';
import { request, type IncomingMessage } from 'node:http';
import { finish, say, ScriptedAgent, usage } from '../../support/scriptedAgent.js';
import { dataFrames, readUntil } from '../../support/readSse.js';
import { startApp, type TestApp } from '../../support/startApp.js';

let app: TestApp | undefined;
afterEach(async () => app?.close());

const post = (url: string, body: unknown) =>
  fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the Chat Completions wire format', () => {
  it('sends the SSE headers and exactly the chunks of DESIGN.md, ending with [DONE]', async () => {
    app = await startApp(new ScriptedAgent([say('Hel'), say('lo'), usage(3, 2), finish()]));
    const response = await post(app.url, { model: 'gpt-x', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const text = await response.text();

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('connection')).toBe('keep-alive');
    const [first] = dataFrames(text) as { id: string; created: number }[];
    const { id, created } = first!;
    expect(id).toMatch(/^chatcmpl-/);
    const frame = (delta: object, finishReason: string | null = null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: 'gpt-x', choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })}\n\n`;
    expect(text).toBe(
      frame({ role: 'assistant' }) + frame({ content: 'Hel' }) + frame({ content: 'lo' }) + frame({}, 'stop') + 'data: [DONE]\n\n',
    );
  });

  it('answers Connection: close to a client that asked for it, and closes the connection after the stream', async () => {
    app = await startApp(new ScriptedAgent([say('x'), finish()]));
    const { port } = new URL(app.url);
    const body = JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const response = await new Promise<IncomingMessage>((resolve, reject) =>
      request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/chat/completions', headers: { connection: 'close' } }, resolve)
        .on('error', reject)
        .end(body),
    );
    const closed = once(response.socket, 'close');
    expect(response.headers.connection).toBe('close');
    let text = '';
    for await (const chunk of response) text += String(chunk);
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    await closed;
  });

  it('with include_usage, puts usage: null on every chunk and a usage chunk before [DONE]', async () => {
    app = await startApp(new ScriptedAgent([say('x'), usage(3, 2), usage(1, 1), finish()]));
    const response = await post(app.url, {
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi' }],
    });
    const frames = dataFrames(await response.text());

    expect(frames.at(-1)).toBe('[DONE]');
    const chunks = frames.slice(0, -1) as { choices: unknown[]; usage: unknown; model: string }[];
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null && chunk.choices.length === 1)).toBe(true);
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 },
      model: 'rxgate-agent',
    });
  });

  it('sends keepalive comments while the agent is silent, before its first token', async () => {
    app = await startApp(new ScriptedAgent([{ silent: true }]), { keepaliveMs: 20 });
    const controller = new AbortController();
    const response = await fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      signal: controller.signal,
    });
    const text = await readUntil(response.body!, (seen) => seen.split(': keepalive\n\n').length > 3);
    controller.abort();

    expect(text.startsWith('data: {')).toBe(true);
    expect(text.split(': keepalive\n\n').length - 1).toBeGreaterThanOrEqual(3);
  });

  it('answers a non-streaming request with one chat.completion, as JSON in UTF-8 with its length in bytes', async () => {
    app = await startApp(new ScriptedAgent([say('Hello'), say(' there'), usage(5, 2), finish()]));
    const response = await post(app.url, { model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }] });
    const bytes = Buffer.from(await response.arrayBuffer());
    const body: unknown = JSON.parse(bytes.toString('utf8'));

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect(body).toEqual({
      id: expect.stringMatching(/^chatcmpl-/),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'gpt-x',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there' }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
    });
  });

  it('counts the bytes, not the characters, of a non-streaming answer beyond ASCII', async () => {
    app = await startApp(new ScriptedAgent([say('こんにちは 👋'), finish()]));
    const response = await post(app.url, { model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }] });
    const bytes = Buffer.from(await response.arrayBuffer());

    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect((JSON.parse(bytes.toString('utf8')) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe(
      'こんにちは 👋',
    );
  });
});
