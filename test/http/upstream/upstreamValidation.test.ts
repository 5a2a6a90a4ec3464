import { afterEach, describe, expect, it } from 'vitest';
import { Cancellation } from '../../../src/agent/cancellation.js';
import { createLlmAgent } from '../../../src/agent/llm/createLlmAgent.js';
import { toOpenAIError } from '../../../src/errors/toOpenAIError.js';
import { UpstreamError } from '../../../src/errors/UpstreamError.js';
import { calculatorTool } from '../../../src/agent/tools/calculatorTool.js';
import { collectRun } from '../../support/collectRun.js';
import { createScriptedUpstream, frames, type ScriptedUpstream, type UpstreamStep } from '../../support/scriptedUpstream.js';

// The upstream's chunks are checked once, where they arrive: what rxgate reads must have the
// type rxgate reads it as, and anything else fails the call as upstream_malformed_frame.

const QUESTION = { model: 'rxgate-agent', messages: [{ role: 'user' as const, content: 'hello' }] };

let upstream: ScriptedUpstream | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

async function run(steps: readonly UpstreamStep[]) {
  upstream = await createScriptedUpstream([{ steps }, { steps: [frames.text('after the tool'), frames.finish('stop'), frames.done()] }]);
  // A chunk that slipped through would leave the stalled call to the request timeout, not to the test's.
  const agent = createLlmAgent({ baseUrl: upstream.baseUrl, model: 'up', tools: [calculatorTool], requestTimeoutMs: 3000 });
  return collectRun(agent.run(QUESTION, new Cancellation()));
}

const withChoice = (choice: Record<string, unknown>): UpstreamStep => ({
  chunk: { id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, ...choice }] },
});
const withDelta = (delta: Record<string, unknown>): UpstreamStep => withChoice({ delta, finish_reason: null });
const withUsage = (usage: unknown): UpstreamStep => ({ chunk: { choices: [], usage } });

describe('an upstream chunk rxgate cannot read', () => {
  it.each<[string, UpstreamStep, string]>([
    ['prompt_tokens as a string', withUsage({ prompt_tokens: '7', completion_tokens: 1, total_tokens: 8 }), 'usage.prompt_tokens'],
    ['negative prompt_tokens', withUsage({ prompt_tokens: -7, completion_tokens: 1, total_tokens: 8 }), 'usage.prompt_tokens'],
    ['fractional completion_tokens', withUsage({ prompt_tokens: 7, completion_tokens: 1.5 }), 'usage.completion_tokens'],
    ['total_tokens as an object', withUsage({ total_tokens: { value: 8 } }), 'usage.total_tokens'],
    ['usage as a number', withUsage(8), 'usage'],
    ['a null tool call', withDelta({ tool_calls: [null] }), 'choices[0].delta.tool_calls[0]'],
    [
      'a tool call index as a string',
      withDelta({ tool_calls: [{ index: '0', id: 'call_1', function: { name: 'calculator', arguments: '' } }] }),
      'choices[0].delta.tool_calls[0].index',
    ],
    [
      'tool call arguments as an object',
      withDelta({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'calculator', arguments: { expression: '1+1' } } }] }),
      'choices[0].delta.tool_calls[0].function.arguments',
    ],
    ['tool_calls as an object', withDelta({ tool_calls: { index: 0 } }), 'choices[0].delta.tool_calls'],
    ['choices as an object', { chunk: { choices: {} } }, 'choices'],
    ['a null choice', { chunk: { choices: [null] } }, 'choices[0]'],
    ['a delta that is a string', withChoice({ delta: 'hi' }), 'choices[0].delta'],
    ['content as an object', withDelta({ content: { text: 'hi' } }), 'choices[0].delta.content'],
    ['content as a number', withDelta({ content: 7 }), 'choices[0].delta.content'],
    ['reasoning_content as an array', withDelta({ reasoning_content: ['hm'] }), 'choices[0].delta.reasoning_content'],
    ['reasoning as an object', withDelta({ reasoning: { text: 'hm' } }), 'choices[0].delta.reasoning'],
    ['finish_reason as a number', withChoice({ delta: {}, finish_reason: 1 }), 'choices[0].finish_reason'],
    ['data: null', { data: 'null' }, 'the chunk: Invalid input: expected object'],
    ['data: a number', { data: '42' }, 'the chunk: Invalid input: expected object'],
    ['data: a string', { data: '"hi"' }, 'the chunk: Invalid input: expected object'],
    ['data: an array', { data: '[]' }, 'the chunk: Invalid input: expected object'],
  ])('%s: malformed_frame, naming the field, and the socket is closed', async (_name, bad, field) => {
    const { events, error } = await run([frames.text('ok'), bad, { stall: true }]);

    expect(events).toEqual([{ type: 'text', delta: 'ok' }]);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'malformed_frame', message: expect.stringContaining(field) });
    expect(toOpenAIError(error)).toMatchObject({ status: 502, body: { error: { code: 'upstream_malformed_frame' } } });
    expect(await upstream!.requests[0]!.closed).toMatchObject({ finished: false });
  });
});

describe('an upstream chunk as lenient as real upstreams are', () => {
  it('ignores unknown fields, takes null for any optional field, and a usage-only chunk', async () => {
    const { events, error } = await run([
      {
        chunk: {
          id: 'c',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'up',
          system_fingerprint: 'fp',
          service_tier: null,
          choices: [{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }],
          usage: null,
        },
      },
      withDelta({ content: null, reasoning_content: 'thinking', reasoning: null, tool_calls: null }),
      withDelta({ content: 'Hi', reasoning_content: null, extra: { nested: [1, 2] } }),
      withChoice({ delta: null, finish_reason: null }),
      withChoice({ finish_reason: 'stop' }),
      withUsage({ prompt_tokens: 7, completion_tokens: 2, total_tokens: null, prompt_tokens_details: { cached_tokens: 0 } }),
      { chunk: { usage: { prompt_tokens: 7, completion_tokens: 3 } } },
      frames.done(),
    ]);

    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: 'reasoning', delta: 'thinking' },
      { type: 'text', delta: 'Hi' },
      { type: 'usage', usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 } },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('takes tool calls with null fields in their later fragments', async () => {
    const { events, error } = await run([
      withDelta({
        content: null,
        tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'calculator', arguments: '' } }],
      }),
      withDelta({
        content: null,
        tool_calls: [{ index: 0, id: null, type: null, function: { name: null, arguments: '{"expression":"6*7"}' } }],
      }),
      withChoice({ delta: {}, finish_reason: 'tool_calls' }),
      frames.done(),
    ]);

    expect(error).toBeUndefined();
    expect(events).toContainEqual({ type: 'tool_start', callId: 'call_1', name: 'calculator', arguments: '{"expression":"6*7"}' });
    expect(events).toContainEqual(expect.objectContaining({ type: 'tool_end', callId: 'call_1', result: '42' }));
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });
});
