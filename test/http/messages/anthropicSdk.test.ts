import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { answer, endlessAnswer, frames, toolCalls, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';

const gateways = useLlmGateway();

async function clientFor(scripts: readonly UpstreamScript[], config = {}) {
  const { upstream, gateway } = await gateways.start(scripts, {}, config);
  return { upstream, gateway, client: new Anthropic({ baseURL: gateway.url, apiKey: 'unused', maxRetries: 0 }) };
}

const question = { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'Say hello' }] };
const weatherTool = {
  name: 'get_weather',
  description: 'The weather in a city',
  input_schema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object' as const,
    properties: { city: { type: 'string' } },
  },
};

describe('the official @anthropic-ai/sdk client', () => {
  it('gets a whole Message: text blocks, stop reason, the upstream usage, a msg_ id and request-id', async () => {
    const { client, upstream } = await clientFor([answer('Hello', ', world')]);
    const { data: message, response } = await client.messages.create(question).withResponse();

    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'Hello, world' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 2 },
    });
    expect(message.id).toMatch(/^msg_[\w-]{24}$/);
    expect(response.headers.get('request-id')).toMatch(/.+/);
    const sent = (await upstream.request(0)).body;
    expect(sent).toMatchObject({ messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 1024 });
  });

  it('streams the same message: finalMessage() of messages.stream() equals the whole answer of the same script', async () => {
    const script: UpstreamScript = {
      steps: [
        frames.role(),
        frames.reasoning('Thinking'),
        frames.text('Hi'),
        frames.text(' there'),
        frames.finish('stop'),
        frames.usage(12, 4),
        frames.done(),
      ],
    };
    const { client } = await clientFor([script, script]);
    const whole = await client.messages.create(question);
    const stream = client.messages.stream(question);
    const types: string[] = [];
    stream.on('streamEvent', (event) => types.push(event.type));
    const streamed = await stream.finalMessage();

    // The stream helper adds its own fields (`parsed_output`, `stop_details`); every field of the whole answer is the same.
    expect(streamed).toMatchObject({ ...whole, id: streamed.id });
    expect(streamed.content).toEqual(whole.content);
    expect(streamed.content).toEqual([
      { type: 'thinking', thinking: 'Thinking', signature: '' },
      { type: 'text', text: 'Hi there' },
    ]);
    expect(types).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(streamed.usage).toMatchObject({ input_tokens: 12, output_tokens: 4 });
  });

  it('round-trips a client tool: tool_use blocks out with stop_reason tool_use, tool_result back as the tool message', async () => {
    const calls = toolCalls(
      { id: 'call_a', name: 'get_weather', fragments: ['{"city":', '"Paris"}'] },
      { id: 'call_b', name: 'get_weather', fragments: ['{"city":', '"Oslo"}'] },
    );
    const { client, upstream } = await clientFor([calls, answer('Sunny in Paris, snow in Oslo')]);
    const tools = [weatherTool];
    const first = await client.messages.stream({ ...question, tools }).finalMessage();

    expect(first.stop_reason).toBe('tool_use');
    expect(first.content).toEqual([
      { type: 'tool_use', id: 'call_a', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'call_b', name: 'get_weather', input: { city: 'Oslo' } },
    ]);
    const second = await client.messages.create({
      ...question,
      tools,
      messages: [
        ...question.messages,
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_a', content: 'sunny' },
            { type: 'tool_result', tool_use_id: 'call_b', content: [{ type: 'text', text: 'no service' }], is_error: true },
          ],
        },
      ],
    });

    expect(second.content).toEqual([{ type: 'text', text: 'Sunny in Paris, snow in Oslo' }]);
    const offered = (await upstream.request(0)).body;
    // Beside the agent's own tools, without `$schema`.
    expect(offered.tools).toContainEqual({
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'The weather in a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
    });
    expect((await upstream.request(1)).body.messages).toEqual([
      { role: 'user', content: 'Say hello' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'sunny' },
      { role: 'tool', tool_call_id: 'call_b', content: 'Error: no service' },
    ]);
  });

  it('counts tokens locally, more with tools, and never calls the upstream', async () => {
    const { client, upstream } = await clientFor([answer('unused')]);
    const bare = await client.messages.countTokens({ model: question.model, messages: question.messages });
    const withTools = await client.messages.countTokens({ model: question.model, messages: question.messages, tools: [weatherTool] });

    expect(bare.input_tokens).toBeGreaterThan(0);
    expect(withTools.input_tokens).toBeGreaterThan(bare.input_tokens);
    expect(upstream.requests).toHaveLength(0);
  });

  it('lists the models in Anthropic shape', async () => {
    const { client } = await clientFor([answer('unused')]);
    const page = await client.models.list();

    expect(page.data).toEqual([{ type: 'model', id: 'rxgate-agent', display_name: 'rxgate-agent', created_at: expect.any(String) }]);
    expect(page.has_more).toBe(false);
  });

  it('closes the upstream socket when the stream is aborted mid-answer', async () => {
    const { client, upstream } = await clientFor([endlessAnswer('tok ')]);
    const stream = client.messages.stream(question);
    let texts = 0;
    await expect(
      (async () => {
        for await (const event of stream) {
          if (event.type === 'content_block_delta' && ++texts === 3) stream.abort();
        }
      })(),
    ).rejects.toBeInstanceOf(Anthropic.APIUserAbortError);
    const closed = await (await upstream.request(0)).closed;

    expect(closed.finished).toBe(false);
    expect(upstream.requests).toHaveLength(1);
  });

  it('raises the Anthropic error types: a bad body, a bad key', async () => {
    const { client, gateway } = await clientFor([answer('unused')], { apiKey: 'sk-right' });
    const keyed = new Anthropic({ baseURL: gateway.url, apiKey: 'sk-right', maxRetries: 0 });
    const noMaxTokens = keyed.messages.create({ model: 'm', messages: question.messages } as never);

    await expect(noMaxTokens).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    await expect(noMaxTokens).rejects.toMatchObject({ status: 400, error: { type: 'error', error: { type: 'invalid_request_error' } } });
    await expect(client.messages.create(question)).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
  });
});
