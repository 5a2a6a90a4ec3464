import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs, streamText, tool, type ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answer, frames, toolCalls, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';

// The Vercel AI SDK against rxgate: @ai-sdk/openai-compatible (Chat Completions) and @ai-sdk/openai
// (whose default is the Responses API), over the LLM agent and a scripted upstream.

const gateways = useLlmGateway();

/** A fetch that keeps the JSON body of every request the SDK sends to rxgate. */
function recordingFetch() {
  const bodies: Record<string, unknown>[] = [];
  const record: typeof fetch = async (input, init) => {
    if (typeof init?.body === 'string') bodies.push(JSON.parse(init.body) as Record<string, unknown>);
    return fetch(input, init);
  };
  return { bodies, fetch: record };
}

const chatModel = (url: string) =>
  createOpenAICompatible({ name: 'rxgate', baseURL: `${url}/v1`, includeUsage: true }).chatModel('rxgate-agent');

const weatherInput = z.object({ city: z.string() });

/** The client's weather tool: the SDK executes it when it counts its runs in `runs`, else leaves the call to the caller. */
const weatherTool = (runs?: { count: number }) =>
  runs
    ? tool({
        description: 'The weather in a city',
        inputSchema: weatherInput,
        execute: async ({ city }) => {
          runs.count++;
          return `21 °C and sunny in ${city}`;
        },
      })
    : tool({ description: 'The weather in a city', inputSchema: weatherInput });

const weatherCall = () => toolCalls({ id: 'call_w', name: 'get_weather', fragments: ['{"city":', '"Oslo"}'] });

/** An answer the upstream's content filter stopped part way. */
const filtered = (): UpstreamScript => ({
  steps: [frames.role(), frames.text('Here is how'), frames.finish('content_filter'), frames.usage(4, 3), frames.done()],
});

describe('the Vercel AI SDK with @ai-sdk/openai-compatible (Chat Completions)', () => {
  it('streams a client tool call with toolChoice required, and the upstream is asked with tool_choice required', async () => {
    const { upstream, gateway } = await gateways.start([weatherCall()]);
    const result = streamText({
      model: chatModel(gateway.url),
      prompt: 'Weather in Oslo?',
      tools: { get_weather: weatherTool() },
      toolChoice: 'required',
    });
    const parts: string[] = [];
    for await (const part of result.fullStream) parts.push(part.type);

    expect(await result.toolCalls).toMatchObject([{ toolCallId: 'call_w', toolName: 'get_weather', input: { city: 'Oslo' } }]);
    expect(await result.finishReason).toBe('tool-calls');
    expect(parts).not.toContain('error');
    expect(parts).toEqual(expect.arrayContaining(['tool-input-start', 'tool-input-delta', 'tool-call']));
    expect(upstream.requests[0]!.body).toMatchObject({ tool_choice: 'required' });
  });

  it('runs a multi-step loop: the SDK executes the client tool, sends its result, and the model finishes', async () => {
    const runs = { count: 0 };
    const { upstream, gateway } = await gateways.start([weatherCall(), answer('It is sunny in Oslo.')]);
    const result = streamText({
      model: chatModel(gateway.url),
      prompt: 'Weather in Oslo?',
      tools: { get_weather: weatherTool(runs) },
      stopWhen: stepCountIs(3),
    });

    expect(await result.text).toBe('It is sunny in Oslo.');
    expect(await result.finishReason).toBe('stop');
    expect(await result.steps).toHaveLength(2);
    expect(runs.count).toBe(1);
    expect(upstream.requests).toHaveLength(2);
    const messages = upstream.requests[1]!.body.messages as Record<string, unknown>[];
    expect(messages.slice(1)).toEqual([
      expect.objectContaining({
        role: 'assistant',
        tool_calls: [{ id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
      }),
      { role: 'tool', tool_call_id: 'call_w', content: '21 °C and sunny in Oslo' },
    ]);
  });

  it('reports an answer the upstream content filter stopped as content-filter, not as a clean stop', async () => {
    const { gateway } = await gateways.start([filtered(), filtered()]);
    const streamed = streamText({ model: chatModel(gateway.url), prompt: 'How do I…?' });
    const generated = await generateText({ model: chatModel(gateway.url), prompt: 'How do I…?' });

    expect(await streamed.text).toBe('Here is how');
    expect(await streamed.finishReason).toBe('content-filter');
    expect(generated.finishReason).toBe('content-filter');
  });
});

describe('the Vercel AI SDK with @ai-sdk/openai (the Responses API)', () => {
  it('streams a client function call with toolChoice required, and the upstream is asked with tool_choice required', async () => {
    const { upstream, gateway } = await gateways.start([weatherCall()]);
    const openai = createOpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused' });
    const result = streamText({
      model: openai('rxgate-agent'),
      prompt: 'Weather in Oslo?',
      tools: { get_weather: weatherTool() },
      toolChoice: 'required',
    });
    const parts: string[] = [];
    for await (const part of result.fullStream) parts.push(part.type);

    expect(parts).not.toContain('error');
    expect(await result.toolCalls).toMatchObject([{ toolCallId: 'call_w', toolName: 'get_weather', input: { city: 'Oslo' } }]);
    expect(await result.finishReason).toBe('tool-calls');
    expect(upstream.requests[0]!.body).toMatchObject({ tool_choice: 'required' });
  });

  it('streams a turn where the agent ran its own tool without NoSuchToolError: a provider-executed mcp call', async () => {
    const serverCall = toolCalls({ id: 'call_calc', name: 'calculator', fragments: ['{"expression":"6*7"}'] });
    const { gateway } = await gateways.start([serverCall, answer('6*7 is 42.')]);
    const openai = createOpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused' });
    const result = streamText({
      model: openai('rxgate-agent'),
      prompt: 'What is 6*7?',
      tools: { get_weather: weatherTool() },
    });
    const parts = [];
    for await (const part of result.fullStream) parts.push(part);

    expect(parts.filter((part) => part.type === 'error')).toEqual([]);
    expect(await result.text).toBe('6*7 is 42.');
    expect(await result.finishReason).toBe('stop');
    expect(parts.find((part) => part.type === 'tool-call')).toMatchObject({
      toolName: 'mcp.calculator',
      providerExecuted: true,
      dynamic: true,
    });
    expect(parts.find((part) => part.type === 'tool-result')).toMatchObject({
      toolName: 'mcp.calculator',
      output: { type: 'call', serverLabel: 'rxgate', name: 'calculator', output: '42' },
    });
  });

  it('continues a stored conversation in a second turn, referencing the earlier items (item_reference)', async () => {
    const serverCall = toolCalls({ id: 'call_calc', name: 'calculator', fragments: ['{"expression":"6*7"}'] });
    const { upstream, gateway } = await gateways.start([serverCall, answer('6*7 is 42.'), answer('84.')]);
    const recorder = recordingFetch();
    const openai = createOpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', fetch: recorder.fetch });
    const first = await generateText({ model: openai('rxgate-agent'), prompt: 'What is 6*7?' });
    const messages: ModelMessage[] = [
      { role: 'user', content: 'What is 6*7?' },
      ...first.response.messages,
      { role: 'user', content: 'And twice that?' },
    ];
    const second = await generateText({ model: openai('rxgate-agent'), messages });

    expect(second.text).toBe('84.');
    const input = recorder.bodies[1]!.input as Record<string, unknown>[];
    expect(input).toEqual([
      { role: 'user', content: [{ type: 'input_text', text: 'What is 6*7?' }] },
      { type: 'item_reference', id: expect.stringMatching(/^mcp_[0-9a-f]{32}_o0$/) },
      { type: 'item_reference', id: expect.stringMatching(/^msg_[0-9a-f]{32}_o1$/) },
      { role: 'user', content: [{ type: 'input_text', text: 'And twice that?' }] },
    ]);
    expect(upstream.requests[2]!.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What is 6*7?' }] },
      { role: 'assistant', content: '6*7 is 42.' },
      { role: 'user', content: [{ type: 'text', text: 'And twice that?' }] },
    ]);
  });

  it('ends a turn with a client function call that the SDK executes in its loop, then continues', async () => {
    const runs = { count: 0 };
    const { upstream, gateway } = await gateways.start([weatherCall(), answer('Sunny.')]);
    const openai = createOpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused' });
    const result = await generateText({
      model: openai('rxgate-agent'),
      prompt: 'Weather in Oslo?',
      tools: { get_weather: weatherTool(runs) },
      stopWhen: stepCountIs(3),
    });

    expect(result.text).toBe('Sunny.');
    expect(runs.count).toBe(1);
    expect(upstream.requests[1]!.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_w', content: '21 °C and sunny in Oslo' },
    ]);
  });

  it('reports an answer the upstream content filter stopped as content-filter, not as a clean stop', async () => {
    const { gateway } = await gateways.start([filtered(), filtered()]);
    const openai = createOpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused' });
    const streamed = streamText({ model: openai('rxgate-agent'), prompt: 'How do I…?' });
    const generated = await generateText({ model: openai('rxgate-agent'), prompt: 'How do I…?' });

    expect(await streamed.text).toBe('Here is how');
    expect(await streamed.finishReason).toBe('content-filter');
    expect(generated.finishReason).toBe('content-filter');
  });
});
