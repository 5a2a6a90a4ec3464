import OpenAI from 'openai';
import type { FunctionTool } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { answer, frames, parallelToolCalls, toolCalls, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';
import { collectStream } from '../../support/collectStream.js';

// The Responses API over the LLM agent and a scripted upstream, with the official openai SDK:
// client function tools, their follow-up, item references, input items, echoed fields, reasoning,
// and the agent's own tools as mcp_call items.

const gateways = useLlmGateway();
const clientFor = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 });

const WEATHER: FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};
const SEARCH: FunctionTool = {
  type: 'function',
  name: 'search',
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
  strict: false,
};
const twoCalls = (): UpstreamScript =>
  toolCalls(
    { id: 'call_w', name: 'get_weather', fragments: ['{"ci', 'ty":"Oslo"}'] },
    { id: 'call_s', name: 'search', fragments: ['{"q":', '"news"}'] },
  );

describe('client function tools through the Responses API', () => {
  it('ends a streamed response with function_call items, status completed, their arguments as delta and done events', async () => {
    const { upstream, gateway } = await gateways.start([twoCalls()]);
    const stream = clientFor(gateway.url).responses.stream({
      model: 'rxgate-agent',
      input: 'Weather in Oslo, and news?',
      tools: [WEATHER, SEARCH],
    });
    const events = await collectStream(stream);
    const response = await stream.finalResponse();

    expect(response.status).toBe('completed');
    // The SDK's finalResponse() adds parsed_arguments to function calls.
    expect(response.output).toMatchObject([
      {
        id: expect.stringMatching(/^fc_/),
        type: 'function_call',
        status: 'completed',
        call_id: 'call_w',
        name: 'get_weather',
        arguments: '{"city":"Oslo"}',
      },
      {
        id: expect.stringMatching(/^fc_/),
        type: 'function_call',
        status: 'completed',
        call_id: 'call_s',
        name: 'search',
        arguments: '{"q":"news"}',
      },
    ]);
    expect(
      events
        .filter((event) => event.type.startsWith('response.function_call_arguments'))
        .map((event) => [event.type, 'output_index' in event ? event.output_index : -1]),
    ).toEqual([
      ['response.function_call_arguments.delta', 0],
      ['response.function_call_arguments.delta', 0],
      ['response.function_call_arguments.done', 0],
      ['response.function_call_arguments.delta', 1],
      ['response.function_call_arguments.delta', 1],
      ['response.function_call_arguments.done', 1],
    ]);
    const body = upstream.requests[0]!.body;
    expect((body.tools as unknown[]).slice(2)).toEqual([
      {
        type: 'function',
        function: { name: 'get_weather', description: 'The weather in a city', parameters: WEATHER.parameters, strict: true },
      },
      { type: 'function', function: { name: 'search', parameters: SEARCH.parameters, strict: false } },
    ]);
  });

  it('continues with previous_response_id and function_call_output items, sending the upstream the calls and their results', async () => {
    const { upstream, gateway } = await gateways.start([twoCalls(), answer('Sunny, and no news.')]);
    const client = clientFor(gateway.url);
    const first = await client.responses.create({ model: 'rxgate-agent', input: 'Weather in Oslo, and news?', tools: [WEATHER, SEARCH] });
    const second = await client.responses.create({
      model: 'rxgate-agent',
      previous_response_id: first.id,
      tools: [WEATHER, SEARCH],
      input: [
        { type: 'function_call_output', call_id: 'call_w', output: '21 °C, sunny' },
        { type: 'function_call_output', call_id: 'call_s', output: [{ type: 'input_text', text: 'No news.' }] },
      ],
    });

    expect(second.status).toBe('completed');
    expect(second.output_text).toBe('Sunny, and no news.');
    expect(upstream.requests[1]!.body.messages).toEqual([
      { role: 'user', content: 'Weather in Oslo, and news?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          { id: 'call_s', type: 'function', function: { name: 'search', arguments: '{"q":"news"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_w', content: '21 °C, sunny' },
      { role: 'tool', tool_call_id: 'call_s', content: 'No news.' },
    ]);
  });

  it('forwards text.format, max_output_tokens, temperature, top_p, reasoning.effort and tool_choice, and echoes what was asked', async () => {
    const { upstream, gateway } = await gateways.start([answer('{"city":"Oslo"}')]);
    const format = {
      type: 'json_schema' as const,
      name: 'city',
      strict: true,
      schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
    };
    const response = await clientFor(gateway.url).responses.create({
      model: 'rxgate-agent',
      input: 'Which city?',
      tools: [WEATHER],
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
      text: { format },
      max_output_tokens: 100,
      temperature: 0.3,
      top_p: 0.8,
      reasoning: { effort: 'low' },
      metadata: { purpose: 'test' },
      user: 'user-1',
    });

    expect(upstream.requests[0]!.body).toMatchObject({
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      response_format: { type: 'json_schema', json_schema: { name: 'city', strict: true, schema: format.schema } },
      max_tokens: 100,
      temperature: 0.3,
      top_p: 0.8,
      reasoning_effort: 'low',
      user: 'user-1',
    });
    expect(upstream.requests[0]!.body).not.toHaveProperty('metadata');
    expect(response).toMatchObject({
      tools: [{ ...WEATHER }],
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
      text: { format },
      max_output_tokens: 100,
      temperature: 0.3,
      top_p: 0.8,
      reasoning: { effort: 'low', summary: null },
      metadata: { purpose: 'test' },
    });
    expect(response.output_text).toBe('{"city":"Oslo"}');
  });

  it('takes the fields Codex sends: client_metadata kept on the stored response, prompt_cache_key forwarded, encrypted reasoning and summaries asked for', async () => {
    const { upstream, gateway } = await gateways.start([answer('Done')]);
    const client = clientFor(gateway.url);
    const clientMetadata = { session_id: 's-1', 'x-codex-turn-metadata': JSON.stringify({ turn_id: 't-1', sandbox: 'seccomp' }) };
    const created = await client.responses.create({
      model: 'rxgate-agent',
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Be brief' }] },
        { role: 'user', content: 'Go' },
      ],
      include: ['reasoning.encrypted_content'],
      reasoning: { summary: 'auto' },
      prompt_cache_key: 's-1',
      store: true,
      // @ts-expect-error client_metadata is not in the pinned SDK's request type; Codex sends it.
      client_metadata: clientMetadata,
    });

    expect(created).toMatchObject({ status: 'completed', reasoning: { summary: 'auto' }, client_metadata: clientMetadata });
    expect(await client.responses.retrieve(created.id)).toMatchObject({ client_metadata: clientMetadata });
    expect(upstream.requests[0]!.body).toMatchObject({
      prompt_cache_key: 's-1',
      messages: [
        { role: 'developer', content: [{ type: 'text', text: 'Be brief' }] },
        { role: 'user', content: 'Go' },
      ],
    });
    expect(upstream.requests[0]!.body).not.toHaveProperty('client_metadata');
  });

  it('maps text.format json_object to response_format json_object', async () => {
    const { upstream, gateway } = await gateways.start([answer('{}')]);
    await clientFor(gateway.url).responses.create({
      model: 'rxgate-agent',
      input: 'JSON please',
      text: { format: { type: 'json_object' } },
    });

    expect(upstream.requests[0]!.body.response_format).toEqual({ type: 'json_object' });
  });
});

describe('the agent tools and reasoning in the Responses API', () => {
  it('reports the tools the agent ran as mcp_call items, which the SDK stream reads without a function call', async () => {
    const { gateway } = await gateways.start([parallelToolCalls({ reasoning: 'Two tools.' }), answer('It is 42.')]);
    const stream = clientFor(gateway.url).responses.stream({ model: 'rxgate-agent', input: 'Time, and 6*7?' });
    const events = await collectStream(stream);
    const response = await stream.finalResponse();

    expect(response.output).toEqual([
      {
        id: expect.stringMatching(/^rs_/),
        type: 'reasoning',
        status: 'completed',
        summary: [{ type: 'summary_text', text: 'Two tools.' }],
      },
      expect.objectContaining({
        type: 'mcp_call',
        server_label: 'rxgate',
        name: 'current_time',
        arguments: '{"timezone":"UTC"}',
        status: 'completed',
        error: null,
      }),
      expect.objectContaining({
        type: 'mcp_call',
        server_label: 'rxgate',
        name: 'calculator',
        arguments: '{"expression":"6*7"}',
        output: '42',
        status: 'completed',
      }),
      expect.objectContaining({ type: 'message', content: [expect.objectContaining({ text: 'It is 42.' })] }),
    ]);
    expect(events.some((event) => event.type.startsWith('response.function_call'))).toBe(false);
    expect(events.filter((event) => event.type === 'response.reasoning_summary_text.delta')).toHaveLength(1);
  });
});

describe('input items and references', () => {
  it('resolves an item_reference to an output item of a stored response', async () => {
    const { upstream, gateway } = await gateways.start([answer('Oslo is in Norway.'), answer('About 700 000.')]);
    const client = clientFor(gateway.url);
    const first = await client.responses.create({ model: 'rxgate-agent', input: 'Where is Oslo?' });
    const second = await client.responses.create({
      model: 'rxgate-agent',
      input: [
        { role: 'user', content: 'Where is Oslo?' },
        { type: 'item_reference', id: first.output[0]!.id! },
        { role: 'user', content: 'How many live there?' },
      ],
    });

    expect(second.output_text).toBe('About 700 000.');
    expect(upstream.requests[1]!.body.messages).toEqual([
      { role: 'user', content: 'Where is Oslo?' },
      { role: 'assistant', content: 'Oslo is in Norway.' },
      { role: 'user', content: 'How many live there?' },
    ]);
  });

  it('answers 404 naming the reference when the response that held the item was deleted', async () => {
    const { gateway } = await gateways.start([answer('Oslo is in Norway.')]);
    const client = clientFor(gateway.url);
    const first = await client.responses.create({ model: 'rxgate-agent', input: 'Where is Oslo?' });
    await client.responses.delete(first.id);
    const error = await client.responses
      .create({
        model: 'rxgate-agent',
        input: [
          { role: 'user', content: 'And?' },
          { type: 'item_reference', id: first.output[0]!.id! },
        ],
      })
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ status: 404, param: 'input[1].id', code: 'item_deleted' });
    expect((error as Error).message).toContain(first.output[0]!.id!);
  });

  it('lists the input items of a response, paged as OpenAI pages them, and resolves a reference to one of them', async () => {
    const { upstream, gateway } = await gateways.start([answer('Done.'), answer('Again.')]);
    const client = clientFor(gateway.url);
    const response = await client.responses.create({
      model: 'rxgate-agent',
      instructions: 'Be brief.',
      input: [
        { role: 'developer', content: 'Answer in English.' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Look:' },
            { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'low' },
          ],
        },
        { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'found' },
      ],
    });

    const all = [];
    for await (const item of client.responses.inputItems.list(response.id, { order: 'asc', limit: 2 })) all.push(item);
    expect(all).toEqual([
      {
        id: expect.stringMatching(/^msg_.*_i0$/),
        type: 'message',
        role: 'developer',
        status: 'completed',
        content: [{ type: 'input_text', text: 'Answer in English.' }],
      },
      {
        id: expect.stringMatching(/^msg_.*_i1$/),
        type: 'message',
        role: 'user',
        status: 'completed',
        content: [
          { type: 'input_text', text: 'Look:' },
          { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'low' },
        ],
      },
      {
        id: expect.stringMatching(/^fc_.*_i2$/),
        type: 'function_call',
        status: 'completed',
        call_id: 'call_1',
        name: 'lookup',
        arguments: '{}',
      },
      { id: expect.stringMatching(/^fco_.*_i3$/), type: 'function_call_output', status: 'completed', call_id: 'call_1', output: 'found' },
    ]);

    const page = await client.responses.inputItems.list(response.id, { limit: 3 });
    expect(page.data.map((item) => item.id)).toEqual([all[3]!.id, all[2]!.id, all[1]!.id]);
    expect(page.has_more).toBe(true);
    const raw = (await (await fetch(`${gateway.url}/v1/responses/${response.id}/input_items?limit=3`)).json()) as Record<string, unknown>;
    expect(raw).toMatchObject({ object: 'list', first_id: all[3]!.id, last_id: all[1]!.id, has_more: true });
    const next = await client.responses.inputItems.list(response.id, { limit: 3, after: all[1]!.id });
    expect(next.data.map((item) => item.id)).toEqual([all[0]!.id]);
    expect(next.has_more).toBe(false);

    await client.responses.create({
      model: 'rxgate-agent',
      input: [{ type: 'item_reference', id: all[1]!.id }],
    });
    expect(upstream.requests[1]!.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look:' },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } },
        ],
      },
    ]);
  });

  it('refuses a bad page query, naming the parameter', async () => {
    const { gateway } = await gateways.start([answer('Done.')]);
    const response = await clientFor(gateway.url).responses.create({ model: 'rxgate-agent', input: 'hi' });
    for (const [query, param] of [
      ['limit=0', 'limit'],
      ['order=up', 'order'],
      ['after=msg_nope', 'after'],
    ]) {
      const reply = await fetch(`${gateway.url}/v1/responses/${response.id}/input_items?${query}`);
      expect(reply.status).toBe(400);
      expect(((await reply.json()) as { error: { param: string } }).error.param).toBe(param);
    }
    expect((await fetch(`${gateway.url}/v1/responses/resp_nope/input_items`)).status).toBe(404);
  });

  it('passes finish_reason length on as an incomplete response', async () => {
    const truncated: UpstreamScript = { steps: [frames.role(), frames.text('Once upon'), frames.finish('length'), frames.done()] };
    const { gateway } = await gateways.start([truncated]);
    const response = await clientFor(gateway.url).responses.create({ model: 'rxgate-agent', input: 'A story', max_output_tokens: 2 });

    expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output_text: 'Once upon' });
  });

  it('marks the message a length or content_filter finish cut off incomplete, in its done event, the terminal snapshot and GET', async () => {
    const cutBy = (reason: 'length' | 'content_filter'): UpstreamScript => ({
      steps: [frames.role(), frames.text('Once upon'), frames.finish(reason), frames.done()],
    });
    const { gateway } = await gateways.start([cutBy('length'), cutBy('content_filter')]);
    const client = clientFor(gateway.url);
    for (const [max_output_tokens, reason] of [
      [2, 'max_output_tokens'],
      [undefined, 'content_filter'],
    ] as const) {
      const stream = client.responses.stream({ model: 'rxgate-agent', input: 'A story', max_output_tokens });
      const events = await collectStream(stream);
      const response = await stream.finalResponse();
      const cut = { type: 'message', status: 'incomplete', content: [{ type: 'output_text', text: 'Once upon' }] };

      expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason }, output: [cut] });
      expect(events.find((event) => event.type === 'response.output_item.done')).toMatchObject({ item: cut });
      expect(events.at(-1)).toMatchObject({ type: 'response.incomplete', response: { output: [cut] } });
      expect(await client.responses.retrieve(response.id)).toMatchObject({ status: 'incomplete', output: [cut] });
    }
  });

  it('passes finish_reason content_filter on as an incomplete response with reason content_filter', async () => {
    const filtered: UpstreamScript = { steps: [frames.role(), frames.text('Here is how'), frames.finish('content_filter'), frames.done()] };
    const { gateway } = await gateways.start([filtered, filtered]);
    const client = clientFor(gateway.url);
    const response = await client.responses.create({ model: 'rxgate-agent', input: 'How do I…?' });
    const events = await collectStream(await client.responses.create({ model: 'rxgate-agent', input: 'How do I…?', stream: true }));

    expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'content_filter' }, output_text: 'Here is how' });
    expect(events.at(-1)).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'content_filter' } },
    });
  });
});
