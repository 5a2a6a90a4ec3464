import type { Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentRequest, ChatMessage, ClientTool, ModelOptions } from '../../../../src/agent/agent.js';
import type { AgentEvent } from '../../../../src/agent/agentEvent.js';
import { assembleToolCalls } from '../../../../src/agent/assembleToolCalls.js';
import { Cancellation } from '../../../../src/agent/cancellation.js';
import { createLlmAgent, type LlmAgentOptions } from '../../../../src/agent/llm/createLlmAgent.js';
import { calculatorTool } from '../../../../src/agent/tools/calculatorTool.js';
import { defineTool } from '../../../../src/agent/tools/tool.js';
import { captureLogger } from '../../../support/captureLogger.js';
import { collectRun, textOf } from '../../../support/collectRun.js';
import {
  answer,
  createScriptedUpstream,
  frames,
  toolCalls,
  type ScriptedUpstream,
  type UpstreamScript,
} from '../../../support/scriptedUpstream.js';

const WEATHER: ClientTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
    strict: true,
  },
};
const SEARCH: ClientTool = {
  type: 'function',
  function: { name: 'search', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
};
const QUESTION: AgentRequest = {
  model: 'rxgate-agent',
  messages: [{ role: 'user', content: 'Weather in Oslo?' }],
  clientTools: [WEATHER, SEARCH],
};

let upstream: ScriptedUpstream | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

/** A server tool that counts its runs, next to the calculator. */
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

async function agentFor(scripts: UpstreamScript[], options: Partial<LlmAgentOptions> = {}) {
  upstream = await createScriptedUpstream(scripts);
  const log = captureLogger();
  const booking = countingTool();
  const agent = createLlmAgent({
    baseUrl: upstream.baseUrl,
    model: 'up-model',
    tools: [calculatorTool, booking.tool],
    logger: log.logger,
    ...options,
  });
  return { agent, log, upstream, bookings: booking.runs };
}

const deltasOf = (events: readonly AgentEvent[]) => events.filter((event) => event.type === 'tool_call_delta');

describe('client tools through the LLM agent, against a scripted upstream', () => {
  it('sends the client tools after its own, with tool_choice, parallel_tool_calls and every option verbatim', async () => {
    const { agent, upstream } = await agentFor([answer('ok')]);
    const options: ModelOptions = {
      temperature: 0.3,
      top_p: 0.9,
      max_tokens: 100,
      max_completion_tokens: 120,
      stop: ['\n\n', 'END'],
      seed: 42,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      logit_bias: { '50256': -100 },
      user: 'user-7',
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } },
      reasoning_effort: 'low',
      metadata: { team: 'rx' },
    };

    const { error } = await collectRun(
      agent.run({ ...QUESTION, toolChoice: 'auto', parallelToolCalls: false, options }, new Cancellation()),
    );

    expect(error).toBeUndefined();
    const { body } = upstream.requests[0]!;
    expect((body.tools as { function: { name: string } }[]).map((tool) => tool.function.name)).toEqual([
      'calculator',
      'book_table',
      'get_weather',
      'search',
    ]);
    expect((body.tools as unknown[]).slice(2)).toEqual([WEATHER, SEARCH]);
    expect(body).toEqual({
      ...options,
      model: 'up-model',
      messages: QUESTION.messages,
      stream: true,
      stream_options: { include_usage: true },
      tools: body.tools,
      tool_choice: 'auto',
      parallel_tool_calls: false,
    });
  });

  it('ends the run after one model call when the model calls client tools, streaming their deltas', async () => {
    const { agent, upstream } = await agentFor([
      toolCalls(
        { id: 'call_w', name: 'get_weather', fragments: ['{"city":', '"Oslo"}'] },
        { id: 'call_s', name: 'search', fragments: ['{"q":"umbrella"}'] },
      ),
      answer('never'),
    ]);

    const { events, error } = await collectRun(agent.run(QUESTION, new Cancellation()));

    expect(error).toBeUndefined();
    expect(deltasOf(events)).toEqual([
      { type: 'tool_call_delta', index: 0, id: 'call_w', name: 'get_weather', arguments: '' },
      { type: 'tool_call_delta', index: 1, id: 'call_s', name: 'search', arguments: '' },
      { type: 'tool_call_delta', index: 0, arguments: '{"city":' },
      { type: 'tool_call_delta', index: 1, arguments: '{"q":"umbrella"}' },
      { type: 'tool_call_delta', index: 0, arguments: '"Oslo"}' },
    ]);
    expect(assembleToolCalls(deltasOf(events))).toEqual([
      { id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
      { id: 'call_s', type: 'function', function: { name: 'search', arguments: '{"q":"umbrella"}' } },
    ]);
    expect(events.slice(-2)).toEqual([
      { type: 'usage', usage: { inputTokens: 20, outputTokens: 5, totalTokens: 25 } },
      { type: 'finish', reason: 'tool_calls' },
    ]);
    expect(events.some((event) => event.type === 'tool_start')).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(upstream.requests).toHaveLength(1);
  });

  it('runs the server tool of a mixed turn zero times, returns only the client call, and logs the deferral', async () => {
    const { agent, upstream, bookings, log } = await agentFor([
      toolCalls(
        { id: 'call_book', name: 'book_table', fragments: ['{"at":"19:00"}'] },
        { id: 'call_w', name: 'get_weather', fragments: ['{"city":"Oslo"}'] },
      ),
      answer('never'),
    ]);

    const { events, error } = await collectRun(agent.run({ ...QUESTION, requestId: 'req-mixed' }, new Cancellation()));

    expect(error).toBeUndefined();
    expect(deltasOf(events)).toEqual([
      { type: 'tool_call_delta', index: 0, id: 'call_w', name: 'get_weather', arguments: '' },
      { type: 'tool_call_delta', index: 0, arguments: '{"city":"Oslo"}' },
    ]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
    expect(events.some((event) => event.type === 'tool_start' || event.type === 'tool_end')).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(bookings.count).toBe(0);
    expect(upstream.requests).toHaveLength(1);
    expect(log.lines.filter((line) => String(line.msg).startsWith('deferred the server tool calls'))).toEqual([
      expect.objectContaining({ level: 30, requestId: 'req-mixed', deferred: [{ id: 'call_book', name: 'book_table' }] }),
    ]);
    expect(log.text()).not.toContain('19:00');
  });

  it('runs server tools before a client call of a later turn, and then returns the client call', async () => {
    const { agent, upstream, bookings } = await agentFor([
      toolCalls({ id: 'call_book', name: 'book_table', fragments: ['{"at":"19:00"}'] }),
      toolCalls({ id: 'call_w', name: 'get_weather', fragments: ['{"city":"Oslo"}'] }),
      answer('never'),
    ]);

    const { events, error } = await collectRun(agent.run({ ...QUESTION, toolChoice: 'required' }, new Cancellation()));

    expect(error).toBeUndefined();
    expect(bookings.count).toBe(1);
    expect(events.map((event) => event.type)).toEqual([
      'usage',
      'tool_start',
      'tool_end',
      'tool_call_delta',
      'tool_call_delta',
      'usage',
      'finish',
    ]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
    expect(upstream.requests).toHaveLength(2);
    // `required` binds the first call only: on every call it would loop until maxIterations.
    expect(upstream.requests.map((request) => request.body.tool_choice)).toEqual(['required', 'auto']);
  });

  it('forwards a follow-up with the assistant tool calls and the tool results faithfully', async () => {
    const { agent, upstream } = await agentFor([answer('It is sunny in Oslo.')]);
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Oslo and Rome?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          { id: 'call_w2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_w1', content: 'sunny' },
      { role: 'tool', tool_call_id: 'call_w2', content: [{ type: 'text', text: 'rain' }] },
    ];

    const { events, error } = await collectRun(agent.run({ ...QUESTION, messages }, new Cancellation()));

    expect(error).toBeUndefined();
    expect(textOf(events)).toBe('It is sunny in Oslo.');
    expect(upstream.requests[0]!.body.messages).toEqual(messages);
  });

  it('closes the upstream socket when the subscriber leaves while a client call streams its arguments', async () => {
    const { agent, upstream, log } = await agentFor([
      { steps: [frames.role(), frames.toolCallStart(0, 'call_w', 'get_weather'), frames.toolCallArguments(0, '{"ci'), { stall: true }] },
    ]);
    const events: AgentEvent[] = [];
    let subscription!: Subscription;
    await new Promise<void>((resolve, reject) => {
      subscription = agent.run(QUESTION, new Cancellation()).subscribe({
        next: (event) => {
          events.push(event);
          if (event.type === 'tool_call_delta' && event.arguments !== '') resolve();
        },
        error: reject,
      });
    });

    subscription.unsubscribe();
    const closed = await upstream.requests[0]!.closed;

    expect(closed.finished).toBe(false);
    expect(events).toEqual([
      { type: 'tool_call_delta', index: 0, id: 'call_w', name: 'get_weather', arguments: '' },
      { type: 'tool_call_delta', index: 0, arguments: '{"ci' },
    ]);
    expect(upstream.requests).toHaveLength(1);
    expect(log.lines.filter((line) => line.msg === 'llm run interrupted')).toHaveLength(1);
  });
});
