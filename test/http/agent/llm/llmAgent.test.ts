import { firstValueFrom, filter, type Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentEvent } from '../../../../src/agent/agentEvent.js';
import { Cancellation } from '../../../../src/agent/cancellation.js';
import { InterruptReason } from '../../../../src/agent/interruptReason.js';
import { createLlmAgent, type LlmAgentOptions } from '../../../../src/agent/llm/createLlmAgent.js';
import { calculatorTool } from '../../../../src/agent/tools/calculatorTool.js';
import { currentTimeTool } from '../../../../src/agent/tools/currentTimeTool.js';
import { defineTool } from '../../../../src/agent/tools/tool.js';
import { captureLogger } from '../../../support/captureLogger.js';
import { collectRun, textOf } from '../../../support/collectRun.js';
import {
  answer,
  createScriptedUpstream,
  frames,
  parallelToolCalls,
  type ScriptedUpstream,
  type UpstreamScript,
} from '../../../support/scriptedUpstream.js';

const API_KEY = 'sk-test-secret-key-1234';
const QUESTION = { model: 'rxgate-agent', messages: [{ role: 'user' as const, content: 'hello' }] };

let upstream: ScriptedUpstream | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

async function agentFor(scripts: UpstreamScript[], options: Partial<LlmAgentOptions> = {}) {
  upstream = await createScriptedUpstream(scripts);
  const log = captureLogger();
  const agent = createLlmAgent({
    baseUrl: upstream.baseUrl,
    apiKey: API_KEY,
    model: 'up-model',
    tools: [currentTimeTool, calculatorTool],
    logger: log.logger,
    ...options,
  });
  return { agent, log, upstream };
}

/** Subscribes, and resolves with the subscription once an event matching `predicate` arrived. */
function subscribeUntil(agent: ReturnType<typeof createLlmAgent>, predicate: (event: AgentEvent) => boolean) {
  const events: AgentEvent[] = [];
  let subscription!: Subscription;
  const reached = new Promise<void>((resolve, reject) => {
    subscription = agent.run(QUESTION, new Cancellation()).subscribe({
      next: (event) => {
        events.push(event);
        if (predicate(event)) resolve();
      },
      error: reject,
    });
  });
  return { events, reached, subscription: () => subscription };
}

describe('the LLM agent against a scripted upstream', () => {
  it('streams text and reasoning as they arrive, sums usage, finishes with the upstream reason, and never aborts a finished stream', async () => {
    const { agent, log, upstream } = await agentFor([
      {
        steps: [
          frames.role(),
          frames.reasoning('thinking'),
          frames.text('Hel'),
          frames.text('lo'),
          frames.finish('length'),
          frames.usage(12, 3),
          frames.done(),
        ],
      },
    ]);

    const { events, error } = await collectRun(agent.run(QUESTION, new Cancellation()));

    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: 'reasoning', delta: 'thinking' },
      { type: 'text', delta: 'Hel' },
      { type: 'text', delta: 'lo' },
      { type: 'usage', usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 } },
      { type: 'finish', reason: 'length' },
    ]);
    const [request] = upstream.requests;
    expect(request!.url).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.body).toMatchObject({
      model: 'up-model',
      stream: true,
      stream_options: { include_usage: true },
      messages: QUESTION.messages,
    });
    const tools = request!.body.tools as { function: { name: string; parameters: Record<string, unknown> } }[];
    expect(tools.map((tool) => tool.function.name)).toEqual(['current_time', 'calculator']);
    expect(tools[1]!.function.parameters).toMatchObject({ type: 'object', required: ['expression'] });
    expect(tools[1]!.function.parameters).not.toHaveProperty('$schema');
    expect(await request!.closed).toMatchObject({ finished: true });
    expect(log.lines.filter((line) => line.msg === 'llm run interrupted')).toEqual([]);
  });

  it('reads every text exactly whether its frame repeats the last one but for the text (read without parsing) or not', async () => {
    const texts = ['Plain', ' text', ' "quoted"', ' line\nbreak', ' back\\slash', ' é😀\u2028', '', ' plain', ' again'];
    const { agent } = await agentFor([
      {
        steps: [
          frames.role(),
          ...texts.slice(0, 4).map(frames.text),
          { chunk: { id: 'chatcmpl-up', system_fingerprint: 'fp', choices: [{ index: 0, delta: { content: ' other' } }] } },
          { chunk: { id: 'chatcmpl-up', system_fingerprint: 'fp', choices: [{ index: 0, delta: { content: ' shape' } }] } },
          frames.reasoning('thinking'),
          ...texts.slice(4).map(frames.text),
          frames.finish('stop'),
          frames.done(),
        ],
      },
    ]);

    const { events, error } = await collectRun(agent.run(QUESTION, new Cancellation()));

    expect(error).toBeUndefined();
    const deltas = (type: 'text' | 'reasoning') => events.flatMap((event) => (event.type === type ? [event.delta] : []));
    expect(deltas('text')).toEqual([...texts.slice(0, 4), ' other', ' shape', ...texts.slice(4)].filter((text) => text !== ''));
    expect(deltas('reasoning')).toEqual(['thinking']);
  });

  it('runs two parallel tool calls concurrently, sends their results back, and streams the final answer', async () => {
    const { agent, upstream } = await agentFor([parallelToolCalls(), answer('It is late, ', 'and 6*7 is 42.')]);

    const { events, error } = await collectRun(agent.run(QUESTION, new Cancellation()));

    expect(error).toBeUndefined();
    expect(events.filter((event) => event.type === 'tool_start')).toEqual([
      { type: 'tool_start', callId: 'call_time', name: 'current_time', arguments: '{"timezone":"UTC"}' },
      { type: 'tool_start', callId: 'call_calc', name: 'calculator', arguments: '{"expression":"6*7"}' },
    ]);
    const ends = events.filter((event) => event.type === 'tool_end');
    expect(ends).toHaveLength(2);
    expect(ends.find((event) => event.callId === 'call_calc')).toMatchObject({ name: 'calculator', result: '42' });
    expect(ends.find((event) => event.callId === 'call_time')).toMatchObject({
      name: 'current_time',
      result: expect.stringMatching(/^UTC: \d{4}-/),
    });
    expect(textOf(events)).toBe('It is late, and 6*7 is 42.');
    expect(events.filter((event) => event.type === 'usage').map((event) => event.usage.totalTokens)).toEqual([25, 12]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });

    expect(upstream.requests).toHaveLength(2);
    const messages = upstream.requests[1]!.body.messages as Record<string, unknown>[];
    expect(messages.slice(0, 2)).toEqual([
      QUESTION.messages[0],
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_time', type: 'function', function: { name: 'current_time', arguments: '{"timezone":"UTC"}' } },
          { id: 'call_calc', type: 'function', function: { name: 'calculator', arguments: '{"expression":"6*7"}' } },
        ],
      },
    ]);
    expect(messages[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_time', content: expect.stringMatching(/^UTC: /) });
    expect(messages[3]).toEqual({ role: 'tool', tool_call_id: 'call_calc', content: '42' });
  });

  it('gives the model a tool error it can read for arguments that are not JSON or fail the schema', async () => {
    const { agent, upstream } = await agentFor([
      {
        steps: [
          frames.toolCallStart(0, 'call_a', 'calculator'),
          frames.toolCallArguments(0, '{"expression": 6*7'),
          frames.toolCallStart(1, 'call_b', 'current_time'),
          frames.toolCallArguments(1, '{"timezone": 3}'),
          frames.toolCallStart(2, 'call_c', 'no_such_tool'),
          frames.finish('tool_calls'),
          frames.done(),
        ],
      },
      answer('Sorry.'),
    ]);

    const { events, error } = await collectRun(agent.run(QUESTION, new Cancellation()));

    expect(error).toBeUndefined();
    const ends = events.filter((event) => event.type === 'tool_end');
    expect(ends.map((event) => [event.callId, event.error])).toEqual(
      expect.arrayContaining([
        ['call_a', expect.stringContaining('not valid JSON')],
        ['call_b', expect.stringContaining('invalid arguments for current_time: timezone:')],
        ['call_c', 'there is no tool named "no_such_tool"'],
      ]),
    );
    const toolMessages = (upstream.requests[1]!.body.messages as { role: string; content: string }[]).filter(
      (message) => message.role === 'tool',
    );
    expect(toolMessages.map((message) => message.content)).toEqual([
      expect.stringMatching(/^Error: the arguments of calculator are not valid JSON/),
      expect.stringMatching(/^Error: invalid arguments for current_time/),
      'Error: there is no tool named "no_such_tool"',
    ]);
    expect(textOf(events)).toBe('Sorry.');
  });

  it.each([
    ['a server tool', 'calculator', []],
    ['a client tool', 'get_weather', [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object' } } }]],
  ])(
    "%s's arguments past maxToolCallChars: the upstream request is aborted, nothing runs or goes back, the run finishes length",
    async (_what, name, clientTools) => {
      const endless = Array.from({ length: 30 }, () => frames.toolCallArguments(0, 'x'.repeat(100)));
      const { agent, upstream } = await agentFor([{ steps: [frames.toolCallStart(0, 'call_1', name), ...endless, { stall: true }] }], {
        maxToolCallChars: 1_000,
      });
      const { events, error } = await collectRun(agent.run({ ...QUESTION, clientTools }, new Cancellation()));
      expect(error).toBeUndefined();
      expect(events.at(-1)).toEqual({ type: 'finish', reason: 'length' });
      expect(events.filter((event) => event.type === 'tool_start')).toEqual([]);
      const streamed = events.flatMap((event) => (event.type === 'tool_call_delta' ? [event.arguments] : [])).join('');
      expect(streamed.length).toBeLessThanOrEqual(1_000);
      expect(await upstream.requests[0]!.closed).toMatchObject({ finished: false });
      expect(upstream.requests).toHaveLength(1);
    },
  );

  it('stops after maxIterations model calls with a note and finish length', async () => {
    const { agent, upstream } = await agentFor(
      [
        {
          steps: [
            frames.toolCallStart(0, 'call', 'calculator'),
            frames.toolCallArguments(0, '{"expression":"1+1"}'),
            frames.finish('tool_calls'),
            frames.done(),
          ],
        },
      ],
      { maxIterations: 3 },
    );

    const { events, error } = await collectRun(agent.run(QUESTION, new Cancellation()));

    expect(error).toBeUndefined();
    expect(upstream.requests).toHaveLength(3);
    expect(events.filter((event) => event.type === 'tool_start')).toHaveLength(2);
    expect(textOf(events)).toContain('stopped after 3 model calls');
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'length' });
  });
});

describe('cancelling an LLM run', () => {
  it('closes the upstream socket when the subscriber leaves mid-stream, and logs the reason and usage', async () => {
    const { agent, log, upstream } = await agentFor([{ steps: [frames.role(), frames.text('first'), { stall: true }] }]);
    const run = subscribeUntil(agent, (event) => event.type === 'text');
    await run.reached;

    const unsubscribedAt = performance.now();
    run.subscription().unsubscribe();
    const closed = await upstream.requests[0]!.closed;

    expect(closed.finished).toBe(false);
    console.info(`unsubscribe -> upstream socket close (mid-stream): ${(closed.at - unsubscribedAt).toFixed(2)} ms`);
    expect(upstream.requests).toHaveLength(1);
    expect(log.lines.filter((line) => line.msg === 'llm run interrupted')).toEqual([
      expect.objectContaining({
        level: 30,
        reason: InterruptReason.clientDisconnected,
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      }),
    ]);
    expect(log.text()).not.toContain(API_KEY);
  });

  it('closes the upstream socket when the subscriber leaves while the upstream is silent before its first token', async () => {
    const { agent, upstream } = await agentFor([{ steps: [frames.role(), { stall: true }] }]);
    const events: AgentEvent[] = [];
    const subscription = agent.run(QUESTION, new Cancellation()).subscribe((event) => events.push(event));
    await upstream.request(0);

    const unsubscribedAt = performance.now();
    subscription.unsubscribe();
    const closed = await upstream.requests[0]!.closed;

    expect(closed.finished).toBe(false);
    console.info(`unsubscribe -> upstream socket close (silent upstream): ${(closed.at - unsubscribedAt).toFixed(2)} ms`);
    expect(events).toEqual([]);
  });

  it('aborts a running tool and makes no further upstream request when the subscriber leaves', async () => {
    let toolSignal: AbortSignal | undefined;
    let toolStarted!: () => void;
    const started = new Promise<void>((resolve) => (toolStarted = resolve));
    const slowTool = defineTool({
      name: 'slow',
      description: 'waits until aborted',
      parameters: z.object({}),
      run: (_args, signal) => {
        toolSignal = signal;
        toolStarted();
        return new Promise<string>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      },
    });
    const { agent, log, upstream } = await agentFor(
      [
        { steps: [frames.toolCallStart(0, 'call_slow', 'slow'), frames.finish('tool_calls'), frames.usage(7, 1), frames.done()] },
        answer('never'),
      ],
      { tools: [slowTool] },
    );
    const cancellation = new Cancellation();
    const events: AgentEvent[] = [];
    const subscription = agent.run(QUESTION, cancellation).subscribe((event) => events.push(event));
    await started;

    cancellation.cancelWith(InterruptReason.stopRequested);
    subscription.unsubscribe();

    expect(toolSignal?.aborted).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(upstream.requests).toHaveLength(1);
    expect(events.map((event) => event.type)).toEqual(['usage', 'tool_start']);
    expect(log.lines.filter((line) => line.msg === 'llm run interrupted')).toEqual([
      expect.objectContaining({ reason: InterruptReason.stopRequested, usage: { inputTokens: 7, outputTokens: 1, totalTokens: 8 } }),
    ]);
  });

  it('is cold: nothing reaches the upstream before subscription', async () => {
    const { agent, upstream } = await agentFor([answer('hi')]);
    const run$ = agent.run(QUESTION, new Cancellation());
    await new Promise((resolve) => setImmediate(resolve));
    expect(upstream.requests).toHaveLength(0);
    await firstValueFrom(run$.pipe(filter((event) => event.type === 'finish')));
    expect(upstream.requests).toHaveLength(1);
  });
});
