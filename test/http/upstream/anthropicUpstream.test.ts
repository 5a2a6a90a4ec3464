import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { events, messagesAnswer, messagesToolUse, overloaded } from '../../support/anthropicWire.js';
import { answer } from '../../support/scriptedUpstream.js';
import { ROUTED_KEY, useRoutedGateway } from '../../support/startRoutedGateway.js';

// A route to an upstream of "kind": "anthropic", a real HTTP server speaking the Messages wire:
// the real OpenAI and Anthropic SDKs in front, the translation in between.

const start = useRoutedGateway();

const CLAUDE = { models: [{ name: 'claude', targets: [{ upstream: 'main', model: 'claude-up-model', maxOutputTokens: 2048 }] }] };

describe('an anthropic upstream', () => {
  it('answers a streamed chat completion (openai SDK), asked with x-api-key and anthropic-version at /v1/messages', async () => {
    const routed = await start({ main: { kind: 'anthropic', scripts: [messagesAnswer('Hello', ' world')] } }, CLAUDE);
    const client = new OpenAI({ baseURL: `${routed.gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'claude',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
    });
    let text = '';
    let finish: string | null | undefined;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }

    expect(text).toBe('Hello world');
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 2 });
    const request = await routed.scripted('main').request(0);
    expect(request.url).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe(ROUTED_KEY);
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toEqual({
      model: 'claude-up-model',
      max_tokens: 2048,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      stream: true,
    });
  });

  it("passes a client tool's call through to the openai SDK, and its tool with input_schema to the upstream", async () => {
    const script = messagesToolUse('toolu_1', 'weather', '{"city":', '"Paris"}');
    const routed = await start({ main: { kind: 'anthropic', scripts: [script] } }, CLAUDE);
    const client = new OpenAI({ baseURL: `${routed.gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const stream = client.chat.completions.stream({
      model: 'claude',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ type: 'function', function: { name: 'weather', parameters } }],
      tool_choice: 'required',
    });
    const completion = await stream.finalChatCompletion();

    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    expect(completion.choices[0]!.message.tool_calls).toEqual([
      { id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
    ]);
    expect((await routed.scripted('main').request(0)).body).toMatchObject({
      tools: [{ name: 'weather', input_schema: parameters }],
      tool_choice: { type: 'any' },
    });
  });

  it('answers messages.stream (@anthropic-ai/sdk) over it', async () => {
    const routed = await start({ main: { kind: 'anthropic', scripts: [messagesAnswer('Bonjour')] } }, CLAUDE);
    const client = new Anthropic({ baseURL: routed.gateway.url, apiKey: 'unused', maxRetries: 0 });
    const message = await client.messages
      .stream({ model: 'claude', max_tokens: 32_000, messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage();

    expect(message.content).toEqual([{ type: 'text', text: 'Bonjour' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.output_tokens).toBe(1);
    expect((await routed.scripted('main').request(0)).body).toMatchObject({ model: 'claude-up-model', max_tokens: 2048 });
  });

  it("closes the upstream's socket when the client aborts mid-stream", async () => {
    const script = { steps: [events.start(), events.textStart(0), events.text(0, 'first'), { stall: true } as const] };
    const routed = await start({ main: { kind: 'anthropic', scripts: [script] } }, CLAUDE);
    const client = new OpenAI({ baseURL: `${routed.gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'claude', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) {
        expect(chunk.choices[0].delta.content).toBe('first');
        stream.controller.abort();
      }
    }

    const closed = await (await routed.scripted('main').request(0)).closed;
    expect(closed.finished).toBe(false);
  });

  it('fails over from a 529 (overloaded) to an openai-wire target before the first content', async () => {
    const file = {
      models: [
        {
          name: 'claude',
          targets: [
            { upstream: 'main', model: 'claude-up-model' },
            { upstream: 'backup', model: 'local-model' },
          ],
        },
      ],
    };
    const routed = await start({ main: { kind: 'anthropic', scripts: [overloaded] }, backup: [answer('from ', 'backup')] }, file);
    const client = new OpenAI({ baseURL: `${routed.gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'claude', messages: [{ role: 'user', content: 'hi' }] });

    expect(completion.choices[0]!.message.content).toBe('from backup');
    expect(routed.scripted('main').requests.length).toBeGreaterThan(0);
    expect((await routed.scripted('backup').request(0)).body).toMatchObject({
      model: 'local-model',
      messages: [{ role: 'user', content: 'hi' }],
    });
  });
});
