import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../../src/config.js';
import { ConfigError } from '../../../src/errors/ConfigError.js';
import { defineTool } from '../../../src/agent/tools/tool.js';
import { answer, toolCalls } from '../../support/scriptedUpstream.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';
import { collectStream } from '../../support/collectStream.js';

// RXGATE_HOSTED_TOOLS_MAP: a server tool standing in for OpenAI's hosted web search, run by the
// LLM agent against a scripted upstream, its calls reported to the official openai SDK as web_search_call items.

const gateways = useLlmGateway();
const clientFor = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 });

const searched: string[] = [];
const webLookup = defineTool({
  name: 'web_lookup',
  description: 'Searches the web.',
  parameters: z.object({ query: z.string() }),
  run: async ({ query }) => {
    searched.push(query);
    if (query === 'fail') throw new Error('the search engine is down');
    return `Top hit for ${query}: rxjs.dev/guide/testing/marble-testing`;
  },
});
const lookup = (query: string) => toolCalls({ id: 'call_1', name: 'web_lookup', fragments: ['{"query":', JSON.stringify(query), '}'] });
const MAPPED = { hostedToolsMap: loadConfig({ RXGATE_HOSTED_TOOLS_MAP: 'web_search=web_lookup' }).hostedToolsMap };

describe('a hosted tool mapped to a server tool', () => {
  it('runs the server tool and reports its call as a web_search_call item with the web search events', async () => {
    const { upstream, gateway } = await gateways.start([lookup('rxjs marbles'), answer('Found it.')], { tools: [webLookup] }, MAPPED);
    const stream = clientFor(gateway.url).responses.stream({ model: 'rxgate-agent', input: 'Search it', tools: [{ type: 'web_search' }] });
    const events = await collectStream(stream);
    const response = await stream.finalResponse();

    expect(response.output).toEqual([
      {
        id: expect.stringMatching(/^ws_/),
        type: 'web_search_call',
        status: 'completed',
        action: { type: 'search', queries: ['rxjs marbles'], query: 'rxjs marbles' },
      },
      expect.objectContaining({ type: 'message', content: [expect.objectContaining({ text: 'Found it.' })] }),
    ]);
    expect(response.tools).toEqual([{ type: 'web_search' }]);
    const callId = response.output[0]!.id;
    const callEvents = events.filter((event) => 'item_id' in event && event.item_id === callId).map((event) => event.type);
    expect(callEvents).toEqual([
      'response.web_search_call.in_progress',
      'response.web_search_call.searching',
      'response.web_search_call.completed',
    ]);
    // The model was offered the stand-in, and read what it found.
    const offered = (upstream.requests[0]!.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
    expect(offered).toContain('web_lookup');
    expect(upstream.requests[1]!.body.messages).toContainEqual(
      expect.objectContaining({ role: 'tool', tool_call_id: 'call_1', content: expect.stringContaining('Top hit for rxjs marbles') }),
    );
  });

  it('takes the web_search_call back as input with the history, and names no ignored tool', async () => {
    const { gateway } = await gateways.start(
      [lookup('rxjs'), answer('Found it.'), answer('You are welcome.')],
      { tools: [webLookup] },
      MAPPED,
    );
    const first = await fetch(`${gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rxgate-agent', input: 'Search it', tools: [{ type: 'web_search' }], store: false }),
    });
    expect(first.headers.get('x-rxgate-ignored-tools')).toBeNull();
    const { output } = (await first.json()) as { output: Record<string, unknown>[] };

    const followUp = await clientFor(gateway.url).responses.create({
      model: 'rxgate-agent',
      store: false,
      tools: [{ type: 'web_search' }],
      input: [{ role: 'user', content: 'Search it' }, ...(output as never[]), { role: 'user', content: 'Thanks' }],
    });
    expect(followUp.output_text).toBe('You are welcome.');
  });

  it('reports a call that failed as a failed web_search_call, without a completed event', async () => {
    const { gateway } = await gateways.start([lookup('fail'), answer('No luck.')], { tools: [webLookup] }, MAPPED);
    const stream = clientFor(gateway.url).responses.stream({ model: 'rxgate-agent', input: 'Search', tools: [{ type: 'web_search' }] });
    const events = await collectStream(stream);
    const response = await stream.finalResponse();

    expect(response.output[0]).toMatchObject({ type: 'web_search_call', status: 'failed' });
    expect(events.map((event) => event.type)).not.toContain('response.web_search_call.completed');
  });

  it('chooses the stand-in for a tool_choice of the hosted tool, and echoes the choice as sent', async () => {
    const { upstream, gateway } = await gateways.start([lookup('rxjs'), answer('Found it.')], { tools: [webLookup] }, MAPPED);
    const response = await clientFor(gateway.url).responses.create({
      model: 'rxgate-agent',
      input: 'Search it',
      tools: [{ type: 'web_search' }],
      tool_choice: { type: 'web_search' } as never,
    });

    expect(upstream.requests[0]!.body.tool_choice).toEqual({ type: 'function', function: { name: 'web_lookup' } });
    expect(upstream.requests[1]!.body.tool_choice).toBe('auto');
    expect(response.tool_choice).toEqual({ type: 'web_search' });
  });

  it('reports the server tool as an mcp_call when the request offers no web search', async () => {
    const { gateway } = await gateways.start([lookup('rxjs'), answer('Found it.')], { tools: [webLookup] }, MAPPED);
    const response = await clientFor(gateway.url).responses.create({ model: 'rxgate-agent', input: 'Search it' });

    expect(response.output[0]).toMatchObject({ type: 'mcp_call', server_label: 'rxgate', name: 'web_lookup', status: 'completed' });
  });

  it('under RXGATE_HOSTED_TOOLS=refuse takes the mapped tool and refuses the unmapped one', async () => {
    const { gateway } = await gateways.start([answer('Hi.')], { tools: [webLookup] }, { ...MAPPED, hostedTools: 'refuse' });
    const client = clientFor(gateway.url);
    const taken = await client.responses.create({ model: 'rxgate-agent', input: 'Hi', tools: [{ type: 'web_search' }] });
    expect(taken.status).toBe('completed');

    const refused = await client.responses
      .create({ model: 'rxgate-agent', input: 'Hi', tools: [{ type: 'web_search' }, { type: 'file_search', vector_store_ids: ['vs_1'] }] })
      .catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect(refused).toMatchObject({ param: 'tools[1].type', code: 'unsupported_parameter' });
  });

  it('ignores a hosted tool mapped to a tool the agent does not have, as an unmapped one', async () => {
    const { gateway } = await gateways.start([answer('Hi.')], {}, MAPPED);
    const response = await fetch(`${gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rxgate-agent', input: 'Hi', tools: [{ type: 'web_search' }] }),
    });

    expect(response.headers.get('x-rxgate-ignored-tools')).toBe('web_search');
    expect(((await response.json()) as { tools: unknown[] }).tools).toEqual([]);
  });
});

describe('RXGATE_HOSTED_TOOLS_MAP', () => {
  it('reads hosted tool to server tool pairs', () => {
    expect(loadConfig({ RXGATE_HOSTED_TOOLS_MAP: 'web_search=search__web, file_search=docs__find' }).hostedToolsMap).toEqual({
      web_search: 'search__web',
      file_search: 'docs__find',
    });
    expect(loadConfig({}).hostedToolsMap).toEqual({});
  });

  it.each([
    ['a hosted tool rxgate cannot report', 'code_interpreter=run'],
    ['a pair without a tool', 'web_search'],
    ['a tool name a model refuses', 'web_search=two words'],
    ['a hosted tool twice', 'web_search=a,web_search=b'],
  ])('refuses %s, naming the setting', (_name, value) => {
    expect(() => loadConfig({ RXGATE_HOSTED_TOOLS_MAP: value })).toThrow(ConfigError);
    expect(() => loadConfig({ RXGATE_HOSTED_TOOLS_MAP: value })).toThrow(/RXGATE_HOSTED_TOOLS_MAP/);
  });
});
