import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { dataFrames } from '../../support/readSse.js';
import { answer, parallelToolCalls, type ScriptedUpstream } from '../../support/scriptedUpstream.js';
import { TEST_API_KEY, useLlmGateway } from '../../support/startLlmGateway.js';

// Two model calls through POST /v1/chat/completions: the model asks for current_time and
// calculator in parallel, rxgate runs the real built-in tools, then the model answers.

const API_KEY = TEST_API_KEY;
const gateways = useLlmGateway();
const QUESTION = [{ role: 'user' as const, content: 'What time is it, and what is 6*7?' }];

function start() {
  return gateways.start([parallelToolCalls({ reasoning: 'Two tools at once.' }), answer('It is now, ', 'and 6*7 is 42.')]);
}

interface Chunk {
  id: string;
  object: string;
  choices: { index: number; delta: { role?: string; content?: string; reasoning_content?: string }; finish_reason: string | null }[];
  usage?: unknown;
  rxgate_tool?: Record<string, unknown>;
}

async function streamChat(url: string, streamOptions: Record<string, unknown>) {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'rxgate-agent', stream: true, stream_options: streamOptions, messages: QUESTION }),
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  return dataFrames(text).filter((frame): frame is Chunk => frame !== '[DONE]');
}

function expectSecondRequestCarriesToolResults(upstream: ScriptedUpstream) {
  expect(upstream.requests).toHaveLength(2);
  const messages = upstream.requests[1]!.body.messages as Record<string, unknown>[];
  expect(messages).toHaveLength(4);
  expect(messages[0]).toEqual(QUESTION[0]);
  expect(messages[1]).toEqual({
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_time', type: 'function', function: { name: 'current_time', arguments: '{"timezone":"UTC"}' } },
      { id: 'call_calc', type: 'function', function: { name: 'calculator', arguments: '{"expression":"6*7"}' } },
    ],
  });
  expect(messages[2]).toEqual({
    role: 'tool',
    tool_call_id: 'call_time',
    content: expect.stringMatching(/^UTC: \d{4}-\d\d-\d\dT[\d:.]+Z\nUTC: /),
  });
  expect(messages[3]).toEqual({ role: 'tool', tool_call_id: 'call_calc', content: '42' });
  for (const request of upstream.requests) expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
}

const textOf = (chunks: readonly Chunk[]) => chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');

describe('a tool-calling conversation through the chat completions route', () => {
  it('streams rxgate_tool chunks with empty deltas when the client asks for tool progress', async () => {
    const { upstream, gateway } = await start();
    const chunks = await streamChat(gateway.url, { include_tool_progress: true, include_usage: true });

    const tools = chunks.filter((chunk) => chunk.rxgate_tool !== undefined);
    expect(tools.map((chunk) => chunk.rxgate_tool)).toEqual(
      expect.arrayContaining([
        { type: 'start', call_id: 'call_time', name: 'current_time', arguments: '{"timezone":"UTC"}' },
        { type: 'start', call_id: 'call_calc', name: 'calculator', arguments: '{"expression":"6*7"}' },
        {
          type: 'end',
          call_id: 'call_time',
          name: 'current_time',
          result: expect.stringMatching(/^UTC: /),
          duration_ms: expect.any(Number),
        },
        { type: 'end', call_id: 'call_calc', name: 'calculator', result: '42', duration_ms: expect.any(Number) },
      ]),
    );
    expect(tools).toHaveLength(4);
    // Both calls start before either ends: they run concurrently.
    expect(tools.slice(0, 2).map((chunk) => chunk.rxgate_tool!.type)).toEqual(['start', 'start']);
    for (const chunk of tools) expect(chunk.choices).toEqual([{ index: 0, delta: {}, logprobs: null, finish_reason: null }]);

    expect(chunks[0]!.choices[0]!.delta).toEqual({ role: 'assistant' });
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.reasoning_content ?? '').join('')).toBe('Two tools at once.');
    expect(textOf(chunks)).toBe('It is now, and 6*7 is 42.');
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    const finishes = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter((reason) => reason !== null);
    expect(finishes).toEqual(['stop']);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 30, completion_tokens: 7, total_tokens: 37 } });

    expectSecondRequestCarriesToolResults(upstream);
  });

  it('leaves no trace of the tools in the stream when the client did not ask', async () => {
    const { upstream, gateway } = await start();
    const chunks = await streamChat(gateway.url, {});

    expect(chunks.filter((chunk) => 'rxgate_tool' in chunk)).toEqual([]);
    expect(chunks.every((chunk) => chunk.choices.length === 1 && !('usage' in chunk))).toBe(true);
    expect(textOf(chunks)).toBe('It is now, and 6*7 is 42.');
    expect(chunks.at(-1)!.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expectSecondRequestCarriesToolResults(upstream);
  });

  it('is read safely by the openai SDK with tool progress on', async () => {
    const { upstream, gateway } = await start();
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const streamOptions = { include_usage: false, include_tool_progress: true };
    const stream = await client.chat.completions.create({
      model: 'rxgate-agent',
      messages: QUESTION,
      stream: true,
      stream_options: streamOptions,
    });
    let content = '';
    const progress: unknown[] = [];
    for await (const chunk of stream) {
      content += chunk.choices[0]!.delta.content ?? '';
      const extension = (chunk as unknown as { rxgate_tool?: unknown }).rxgate_tool;
      if (extension) progress.push(extension);
    }

    expect(content).toBe('It is now, and 6*7 is 42.');
    expect(progress).toHaveLength(4);
    expectSecondRequestCarriesToolResults(upstream);
  });

  it('answers a non-streaming openai SDK client with the final text after the tools ran', async () => {
    const { upstream, gateway } = await start();
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'rxgate-agent', messages: QUESTION });

    expect(completion.choices[0]).toMatchObject({
      message: { role: 'assistant', content: 'It is now, and 6*7 is 42.' },
      finish_reason: 'stop',
    });
    expectSecondRequestCarriesToolResults(upstream);
  });
});
