import { afterEach, describe, expect, it } from 'vitest';
import { finish, say, ScriptedAgent } from '../../support/scriptedAgent.js';
import { frames } from '../../support/scriptedUpstream.js';
import { sseEvents, type SseEvent } from '../../support/sseEvents.js';
import { startApp, type TestApp } from '../../support/startApp.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});
const gateways = useLlmGateway();

const question = { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] };

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as { type: string; error?: { type: string; message: string } },
  };
}

/** A scripted agent that only answers to the route names `models` (as a routes file would make it). */
async function appWith(models: readonly string[] | undefined, config = {}) {
  const agent = Object.assign(new ScriptedAgent([say('ok'), finish()]), models ? { models } : {});
  app = await startApp(agent, config);
  return app;
}

describe('the Messages API on the wire', () => {
  it.each([
    ['no max_tokens', { model: 'm', messages: question.messages }, 400, 'invalid_request_error', /max_tokens/],
    ['a body that is not an object', [1], 400, 'invalid_request_error', /JSON object/],
    [
      'a document block',
      { ...question, messages: [{ role: 'user', content: [{ type: 'document', source: {} }] }] },
      400,
      'invalid_request_error',
      /messages\[0\]\.content\[0\]/,
    ],
    [
      'an unknown block type',
      { ...question, messages: [{ role: 'user', content: [{ type: 'audio' }] }] },
      400,
      'invalid_request_error',
      /content block/,
    ],
    [
      'a hosted tool type',
      { ...question, tools: [{ type: 'web_search_20250305', name: 'web_search' }] },
      400,
      'invalid_request_error',
      /tools\[0\]/,
    ],
    [
      'a tool_choice naming no tool',
      { ...question, tool_choice: { type: 'tool', name: 'nope' } },
      400,
      'invalid_request_error',
      /tool_choice/,
    ],
  ])('refuses %s in the Anthropic envelope, with request-id', async (_name, body, status, type, message) => {
    const { url } = await appWith(undefined);
    const answer = await post(`${url}/v1/messages`, body);

    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ type: 'error', error: { type, message: expect.stringMatching(message) } });
    expect(answer.headers.get('request-id')).toBe(answer.headers.get('x-request-id'));
  });

  it('refuses an unknown key, sent as x-api-key, with 401 authentication_error', async () => {
    const { url } = await appWith(undefined, { apiKey: 'sk-right' });
    const wrong = await post(`${url}/v1/messages`, question, { 'x-api-key': 'sk-wrong' });
    const right = await post(`${url}/v1/messages`, question, { 'x-api-key': 'sk-right' });

    expect(wrong.status).toBe(401);
    expect(wrong.body.error?.type).toBe('authentication_error');
    expect(right.status).toBe(200);
  });

  it('answers a model no route takes with 404 not_found_error, and takes a claude-* route name like any other', async () => {
    const { url } = await appWith(['claude-sonnet-4-5']);
    const unknown = await post(`${url}/v1/messages`, { ...question, model: 'gpt-9' });
    const routed = await post(`${url}/v1/messages`, question);

    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.type).toBe('not_found_error');
    expect(routed.body).toMatchObject({ type: 'message', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'ok' }] });
  });

  it('answers a body over the limit with 413 request_too_large', async () => {
    const { url } = await appWith(undefined, { maxBodyBytes: 1000 });
    const answer = await post(`${url}/v1/messages`, { ...question, messages: [{ role: 'user', content: 'x'.repeat(2000) }] });

    expect(answer.status).toBe(413);
    expect(answer.body.error?.type).toBe('request_too_large');
  });

  it('accepts ?beta=true, anthropic headers and fields of newer clients it does not read (context_management, container), and drops them', async () => {
    const { url } = await appWith(undefined);
    const answer = await post(
      `${url}/v1/messages?beta=true`,
      { ...question, context_management: { edits: [] }, container: 'c1', thinking: { type: 'adaptive', display: 'omitted' }, top_k: 5 },
      { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'claude-code-20250219' },
    );
    const counted = await post(`${url}/v1/messages/count_tokens?beta=true`, {
      model: 'm',
      messages: question.messages,
      context_management: {},
    });

    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe('message');
    expect(counted).toMatchObject({ status: 200, body: { input_tokens: expect.any(Number) } });
  });

  it("answers GET /v1/models in OpenAI's shape without Anthropic headers", async () => {
    const { url } = await appWith(['claude-sonnet-4-5']);
    const openai = (await (await fetch(`${url}/v1/models`)).json()) as unknown;
    const anthropic = (await (
      await fetch(`${url}/v1/models/claude-sonnet-4-5`, { headers: { 'anthropic-version': '2023-06-01' } })
    ).json()) as unknown;

    expect(openai).toMatchObject({ object: 'list', data: [{ id: 'claude-sonnet-4-5', object: 'model' }] });
    expect(anthropic).toEqual({
      type: 'model',
      id: 'claude-sonnet-4-5',
      display_name: 'claude-sonnet-4-5',
      created_at: expect.any(String),
    });
  });

  it('ends a stream whose upstream fails after content with one error event, and nothing after it', async () => {
    let contentArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (contentArrived = resolve));
    // The upstream breaks once the client has its content: past the commit point, where no failover may follow.
    const { gateway } = await gateways.start([{ steps: [frames.role(), frames.text('Hel'), { waitFor: arrived }, { reset: true }] }]);
    const response = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...question, stream: true }),
    });
    const events: SseEvent[] = [];
    for await (const event of sseEvents(response.body!)) {
      events.push(event);
      if (event.event === 'content_block_delta') contentArrived();
    }

    expect(events.map((event) => event.event)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'error']);
    expect(JSON.parse(events.at(-1)!.data)).toEqual({
      type: 'error',
      error: { type: 'api_error', message: expect.stringMatching(/^rxgate: upstream/) },
    });
    expect(response.headers.get('request-id')).toMatch(/.+/);
  });
});
