import type { Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentRequest, ClientTool } from '../../../src/agent/agent.js';
import { Cancellation } from '../../../src/agent/cancellation.js';
import { createLlmAgent } from '../../../src/agent/llm/createLlmAgent.js';
import type { UpstreamPost } from '../../../src/upstream/UpstreamPost.js';
import type { UpstreamChunk, UpstreamToolCallDelta } from '../../../src/upstream/upstreamChunk.js';
import { defineTool } from '../../../src/agent/tools/tool.js';
import { AgentError } from '../../../src/errors/AgentError.js';
import { marbles } from '../../support/marbles.js';

type Delta = NonNullable<NonNullable<UpstreamChunk['choices']>[number]['delta']>;
const choice = (delta: Delta, finish_reason: string | null = null): UpstreamChunk => ({ choices: [{ delta, finish_reason }] });
const calls = (...tool_calls: UpstreamToolCallDelta[]): UpstreamChunk => choice({ tool_calls });
const start = (index: number, id: string, name: string, args = ''): UpstreamToolCallDelta => ({ index, id, type: 'function', function: { name, arguments: args } });
const more = (index: number, args: string): UpstreamToolCallDelta => ({ index, function: { arguments: args } });
const delta = (index: number, args: string, first?: { id: string; name: string }) => ({ type: 'tool_call_delta', index, ...first, arguments: args });

const WEATHER: ClientTool = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };
const REQUEST: AgentRequest = { model: 'rxgate-agent', messages: [{ role: 'user', content: 'weather in Oslo, and 6*7?' }], clientTools: [WEATHER] };

/** An LLM agent whose upstream calls play `upstream$`, with one server tool that counts its runs. */
function agentOver(upstream$: Observable<UpstreamChunk>, scheduler: Parameters<typeof createLlmAgent>[0]['scheduler']) {
  const posts: UpstreamPost[] = [];
  const runs = { count: 0 };
  const multiply = defineTool({
    name: 'multiply',
    description: 'multiplies',
    parameters: z.object({ a: z.number(), b: z.number() }),
    run: async ({ a, b }) => {
      runs.count++;
      return String(a * b);
    },
  });
  const agent = createLlmAgent({
    baseUrl: 'http://upstream.invalid/v1',
    model: 'up-model',
    tools: [multiply],
    scheduler,
    upstreamChunks: (post) => {
      posts.push(post);
      return upstream$;
    },
  });
  return { agent, posts, runs };
}

describe('the LLM agent with client tools', () => {
  it('ends the run after one model call when the model calls a client tool, with its deltas and finish tool_calls', marbles((m) => {
    const upstream$ = m.cold('-a-b-c-d|', {
      a: choice({ content: 'Let me check.' }),
      b: calls(start(0, 'call_w', 'get_weather', '{"city":')),
      c: calls(more(0, '"Oslo"}')),
      d: choice({}, 'tool_calls'),
    });
    const expected =         '-T-A-B--(F|)';
    const { agent, posts } = agentOver(upstream$, m.scheduler);

    m.expect<unknown>(agent.run(REQUEST, new Cancellation())).toBeObservable(expected, {
      T: { type: 'text', delta: 'Let me check.' },
      A: delta(0, '{"city":', { id: 'call_w', name: 'get_weather' }),
      B: delta(0, '"Oslo"}'),
      F: { type: 'finish', reason: 'tool_calls' },
    });
    m.flush();
    expect(posts).toHaveLength(1);
  }));

  it('runs no server tool of a turn that also calls a client tool, and returns only the client call', marbles((m) => {
    const upstream$ = m.cold('-a-b-c-d-(eu|)', {
      a: calls(start(0, 'call_mul', 'multiply', '{"a":6,')),
      b: calls(start(1, 'call_w', 'get_weather', '{"city":')),
      c: calls(more(0, '"b":7}')),
      d: calls(more(1, '"Oslo"}')),
      e: choice({}, 'tool_calls'),
      u: { choices: [], usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } },
    });
    const expected =         '---A---B-(UF|)';
    const { agent, posts, runs } = agentOver(upstream$, m.scheduler);

    m.expect<unknown>(agent.run(REQUEST, new Cancellation())).toBeObservable(expected, {
      A: delta(0, '{"city":', { id: 'call_w', name: 'get_weather' }),
      B: delta(0, '"Oslo"}'),
      U: { type: 'usage', usage: { inputTokens: 9, outputTokens: 4, totalTokens: 13 } },
      F: { type: 'finish', reason: 'tool_calls' },
    });
    m.flush();
    expect(runs.count).toBe(0);
    expect(posts).toHaveLength(1);
  }));

  it('finishes with length when the token limit cut a client call off', marbles((m) => {
    const upstream$ = m.cold('-a-b|', {
      a: calls(start(0, 'call_w', 'get_weather', '{"ci')),
      b: choice({}, 'length'),
    });
    const expected =         '-A--(F|)';
    const { agent } = agentOver(upstream$, m.scheduler);

    m.expect<unknown>(agent.run(REQUEST, new Cancellation())).toBeObservable(expected, {
      A: delta(0, '{"ci', { id: 'call_w', name: 'get_weather' }),
      F: { type: 'finish', reason: 'length' },
    });
  }));

  it('aborts the upstream call at once when the run is unsubscribed mid-arguments', marbles((m) => {
    const upstream$ =  m.cold('-a-b-c-d-|', {
      a: calls(start(0, 'call_w', 'get_weather')),
      b: calls(more(0, '{"ci')),
      c: calls(more(0, 'ty":')),
      d: calls(more(0, '"Oslo"}')),
    });
    const upstreamSubs =      '^----!';
    const unsub =             '^----!';
    const expected =          '-A-B--';
    const { agent, posts } = agentOver(upstream$, m.scheduler);

    m.expect<unknown>(agent.run(REQUEST, new Cancellation()), unsub).toBeObservable(expected, {
      A: delta(0, '', { id: 'call_w', name: 'get_weather' }),
      B: delta(0, '{"ci'),
    });
    m.expect(upstream$).toHaveSubscriptions(upstreamSubs);
    m.flush();
    expect(posts[0]!.signal.aborted).toBe(true);
  }));

  it('sends the client tools after its own, with the client tool choice, parallel_tool_calls and options', marbles((m) => {
    const upstream$ = m.cold('-(a|)', { a: choice({ content: 'ok' }, 'stop') });
    const { agent, posts } = agentOver(upstream$, m.scheduler);
    const request: AgentRequest = {
      ...REQUEST,
      toolChoice: { type: 'function', function: { name: 'get_weather' } },
      parallelToolCalls: false,
      options: { temperature: 0.2, seed: 7, stop: ['END'], model: 'sneaky', stream: false } as AgentRequest['options'],
    };

    m.expect<unknown>(agent.run(request, new Cancellation())).toBeObservable('-(TF|)', {
      T: { type: 'text', delta: 'ok' },
      F: { type: 'finish', reason: 'stop' },
    });
    m.flush();
    const body = posts[0]!.body as Record<string, unknown>;
    expect((body.tools as { function: { name: string } }[]).map((tool) => tool.function.name)).toEqual(['multiply', 'get_weather']);
    expect((body.tools as unknown[])[1]).toBe(WEATHER);
    expect(body).toMatchObject({ model: 'up-model', stream: true, tool_choice: request.toolChoice, parallel_tool_calls: false, temperature: 0.2, seed: 7, stop: ['END'] });
  }));
});

describe('a client tool named like a server tool', () => {
  it('fails the run with tool_name_conflict before any upstream call', () => {
    const { agent, posts } = agentOver(undefined as unknown as Observable<UpstreamChunk>, undefined);
    const clash: ClientTool = { type: 'function', function: { name: 'multiply' } };
    let failure: unknown;

    agent.run({ ...REQUEST, clientTools: [WEATHER, clash] }, new Cancellation()).subscribe({ error: (error: unknown) => (failure = error) });

    expect(failure).toBeInstanceOf(AgentError);
    expect(failure).toMatchObject({ code: 'tool_name_conflict', message: expect.stringContaining('"multiply" (tools[1])') });
    expect(posts).toHaveLength(0);
    expect(agent.serverToolNames).toEqual(['multiply']);
  });
});
