import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { calculatorTool } from '../../../src/agent/tools/calculatorTool.js';
import { defineTool } from '../../../src/agent/tools/tool.js';
import { dataFrames } from '../../support/readSse.js';
import { answer, frames, toolCalls, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';

// Client tools through POST /v1/chat/completions with the official openai SDK: rxgate forwards
// them to the model next to its own tools and hands the model's calls to the client, as OpenAI does.

const gateways = useLlmGateway();

const WEATHER: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
    strict: true,
  },
};
const SEARCH: ChatCompletionTool = {
  type: 'function',
  function: { name: 'search', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
};
const QUESTION: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Oslo, and news about it?' }];

const oneCall = (): UpstreamScript => toolCalls({ id: 'call_w', name: 'get_weather', fragments: ['{"city":', '"Oslo"}'] });
const twoCalls = (): UpstreamScript =>
  toolCalls(
    { id: 'call_w', name: 'get_weather', fragments: ['{"ci', 'ty":"Os', 'lo"}'] },
    { id: 'call_s', name: 'search', fragments: ['{"q":', '"Oslo ne', 'ws"}'] },
  );

/** A server tool that counts its runs: the proof of what the mixed-turn policy ran. */
function countingTool() {
  const runs = { count: 0 };
  const tool = defineTool({
    name: 'book_table',
    description: 'Books a table (a side effect)',
    parameters: z.object({ at: z.string() }),
    run: async ({ at }) => {
      runs.count++;
      return `booked at ${at}`;
    },
  });
  return { tool, runs };
}

const clientFor = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 });

describe('client tools through the chat completions route, with the openai SDK', () => {
  it('streams a client call as OpenAI does: id, type and name in the first delta, then argument fragments, then tool_calls', async () => {
    const { upstream, gateway } = await gateways.start([oneCall()]);
    const stream = await clientFor(gateway.url).chat.completions.create({
      model: 'rxgate-agent',
      messages: QUESTION,
      tools: [WEATHER],
      stream: true,
    });
    const choices = [];
    for await (const chunk of stream) choices.push(...chunk.choices);

    expect(choices).toEqual([
      { index: 0, delta: { role: 'assistant' }, logprobs: null, finish_reason: null },
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
        logprobs: null,
        finish_reason: null,
      },
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }, logprobs: null, finish_reason: null },
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }, logprobs: null, finish_reason: null },
      { index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' },
    ]);
    expect(upstream.requests).toHaveLength(1);
    const body = upstream.requests[0]!.body;
    expect((body.tools as { function: { name: string } }[]).map((tool) => tool.function.name)).toEqual([
      'current_time',
      'calculator',
      'get_weather',
    ]);
    expect((body.tools as unknown[])[2]).toEqual(WEATHER);
  });

  it('answers a non-streaming client with message.tool_calls, content null and finish_reason tool_calls', async () => {
    await gateways.start([oneCall()]).then(async ({ gateway }) => {
      const completion = await clientFor(gateway.url).chat.completions.create({
        model: 'rxgate-agent',
        messages: QUESTION,
        tools: [WEATHER],
      });

      expect(completion.choices).toEqual([
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ]);
    });
  });

  it('reassembles two parallel calls with interleaved fragments exactly, as the SDK finalChatCompletion() reads them', async () => {
    const { upstream, gateway } = await gateways.start([twoCalls()]);
    const stream = clientFor(gateway.url).chat.completions.stream({
      model: 'rxgate-agent',
      messages: QUESTION,
      tools: [WEATHER, SEARCH],
      tool_choice: 'required',
      parallel_tool_calls: true,
    });
    const indexes: number[] = [];
    stream.on('chunk', (chunk) => indexes.push(...(chunk.choices[0]?.delta.tool_calls ?? []).map((call) => call.index)));
    const completion = await stream.finalChatCompletion();

    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    // The stream helper adds parsed_arguments (parsed when the call was done) for a strict tool.
    expect(completion.choices[0]!.message.tool_calls).toEqual([
      {
        id: 'call_w',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Oslo"}', parsed_arguments: { city: 'Oslo' } },
      },
      { id: 'call_s', type: 'function', function: { name: 'search', arguments: '{"q":"Oslo news"}', parsed_arguments: null } },
    ]);
    // The upstream interleaved the fragments; the client gets one call after the other, as from OpenAI.
    expect(indexes).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect(upstream.requests[0]!.body).toMatchObject({ tool_choice: 'required', parallel_tool_calls: true });
  });

  it('forwards the follow-up turn with the assistant tool_calls and the tool results faithfully, and streams the answer', async () => {
    const { upstream, gateway } = await gateways.start([answer('Sunny, ', 'and calm.')]);
    const history: ChatCompletionMessageParam[] = [
      ...QUESTION,
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          { id: 'call_s', type: 'function', function: { name: 'search', arguments: '{"q":"Oslo news"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_w', content: '21 °C, sunny' },
      { role: 'tool', tool_call_id: 'call_s', content: [{ type: 'text', text: 'No news.' }] },
    ];
    const completion = await clientFor(gateway.url)
      .chat.completions.stream({ model: 'rxgate-agent', messages: history, tools: [WEATHER, SEARCH] })
      .finalChatCompletion();

    expect(completion.choices[0]!.message.content).toBe('Sunny, and calm.');
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(upstream.requests[0]!.body.messages).toEqual(history);
  });

  it('refuses a tool result that answers no earlier call, naming it', async () => {
    const { upstream, gateway } = await gateways.start([answer('unused')]);
    const error = await clientFor(gateway.url)
      .chat.completions.create({
        model: 'rxgate-agent',
        messages: [...QUESTION, { role: 'tool', tool_call_id: 'call_nope', content: 'x' }],
      })
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ status: 400, param: 'messages[1].tool_call_id', code: 'unknown_tool_call' });
    expect((error as Error).message).toContain("'call_nope'");
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses a client tool with the name of a server tool, naming it', async () => {
    const { upstream, gateway } = await gateways.start([answer('unused')]);
    const calculator: ChatCompletionTool = { type: 'function', function: { name: 'calculator', parameters: { type: 'object' } } };
    const error = await clientFor(gateway.url)
      .chat.completions.create({ model: 'rxgate-agent', messages: QUESTION, tools: [WEATHER, calculator] })
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ status: 400, param: 'tools[1].function.name', code: 'tool_name_conflict' });
    expect((error as Error).message).toContain("'calculator'");
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses a tool_choice that names no tool', async () => {
    const { gateway } = await gateways.start([answer('unused')]);
    const error = await clientFor(gateway.url)
      .chat.completions.create({
        model: 'rxgate-agent',
        messages: QUESTION,
        tools: [WEATHER],
        tool_choice: { type: 'function', function: { name: 'get_wether' } },
      })
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ status: 400, param: 'tool_choice.function.name', code: 'invalid_value' });
  });

  it('forwards response_format json_schema and every model option to the upstream, and finish_reason length to the client', async () => {
    const truncated: UpstreamScript = { steps: [frames.role(), frames.text('{"city":"Os'), frames.finish('length'), frames.done()] };
    const { upstream, gateway } = await gateways.start([truncated]);
    const responseFormat = {
      type: 'json_schema' as const,
      json_schema: {
        name: 'city',
        strict: true,
        schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
      },
    };
    const options = {
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 5,
      max_completion_tokens: 6,
      stop: ['\n\n'],
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      logit_bias: { '50256': -100 },
      user: 'user-1',
      reasoning_effort: 'low' as const,
      metadata: { purpose: 'test' },
    };
    const completion = await clientFor(gateway.url).chat.completions.create({
      model: 'rxgate-agent',
      messages: QUESTION,
      response_format: responseFormat,
      ...options,
    });

    expect(completion.choices[0]).toMatchObject({ message: { content: '{"city":"Os' }, finish_reason: 'length' });
    expect(upstream.requests[0]!.body).toMatchObject({ ...options, response_format: responseFormat, model: 'up-model', stream: true });
  });

  it('runs no server tool of a turn that also calls a client tool, returns only the client call, and the deferred call runs on the next turn', async () => {
    const booking = countingTool();
    const mixed = toolCalls(
      { id: 'call_b', name: 'book_table', fragments: ['{"at":"19:00"}'] },
      { id: 'call_w', name: 'get_weather', fragments: ['{"city":"Oslo"}'] },
    );
    const bookAgain = toolCalls({ id: 'call_b2', name: 'book_table', fragments: ['{"at":"19:00"}'] });
    const { upstream, gateway } = await gateways.start([mixed, bookAgain, answer('Booked, and it is sunny.')], {
      tools: [calculatorTool, booking.tool],
    });
    const client = clientFor(gateway.url);
    const first = await client.chat.completions
      .stream({ model: 'rxgate-agent', messages: QUESTION, tools: [WEATHER] })
      .finalChatCompletion();

    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(first.choices[0]!.message.tool_calls).toMatchObject([
      { id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
    ]);
    expect(booking.runs.count).toBe(0);
    expect(upstream.requests).toHaveLength(1);
    expect(gateway.log.lines).toContainEqual(
      expect.objectContaining({
        msg: expect.stringMatching(/^deferred the server tool calls/),
        deferred: [{ id: 'call_b', name: 'book_table' }],
      }),
    );

    const second = await client.chat.completions.create({
      model: 'rxgate-agent',
      messages: [
        ...QUESTION,
        first.choices[0]!.message as ChatCompletionMessageParam,
        { role: 'tool', tool_call_id: 'call_w', content: 'sunny' },
      ],
      tools: [WEATHER],
    });

    expect(second.choices[0]!.message.content).toBe('Booked, and it is sunny.');
    expect(booking.runs.count).toBe(1);
    expect(upstream.requests).toHaveLength(3);
  });
});

describe('the wire bytes of a client call', () => {
  it('puts index, id, type and name in the first delta of each call only, one call after the other', async () => {
    const { gateway } = await gateways.start([twoCalls()]);
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ stream: true, messages: QUESTION, tools: [WEATHER, SEARCH] }),
    });
    const deltas = dataFrames(await response.text())
      .filter((frame): frame is { choices: { delta: { tool_calls?: unknown[] } }[] } => frame !== '[DONE]')
      .flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);

    expect(deltas).toEqual([
      { index: 0, id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 0, function: { arguments: '{"ci' } },
      { index: 0, function: { arguments: 'ty":"Os' } },
      { index: 0, function: { arguments: 'lo"}' } },
      { index: 1, id: 'call_s', type: 'function', function: { name: 'search', arguments: '' } },
      { index: 1, function: { arguments: '{"q":' } },
      { index: 1, function: { arguments: '"Oslo ne' } },
      { index: 1, function: { arguments: 'ws"}' } },
    ]);
  });
});
