import { map, tap, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentRequest, ChatMessage } from '../../../src/agent/agent.js';
import type { AgentEvent } from '../../../src/agent/agentEvent.js';
import type { ApprovalAnswer } from '../../../src/agent/approval.js';
import { Cancellation } from '../../../src/agent/cancellation.js';
import { createLlmAgent } from '../../../src/agent/llm/createLlmAgent.js';
import type { UpstreamPost } from '../../../src/upstream/UpstreamPost.js';
import type { UpstreamChunk } from '../../../src/upstream/upstreamChunk.js';
import { defineTool } from '../../../src/agent/tools/tool.js';
import { marbles } from '../../support/marbles.js';

type Delta = NonNullable<NonNullable<UpstreamChunk['choices']>[number]['delta']>;
const choice = (delta: Delta, finish_reason: string | null = null): UpstreamChunk => ({ choices: [{ delta, finish_reason }] });
const noteCall = (id: string): UpstreamChunk => choice({ tool_calls: [{ index: 0, id, type: 'function', function: { name: 'note', arguments: '{"text":"milk"}' } }] });
const USER: ChatMessage = { role: 'user', content: 'note milk' };

/** An LLM agent whose nth model call plays `calls[n]`, with a `note` tool that needs approval and counts its runs. */
function agentOver(calls: readonly Observable<UpstreamChunk>[], scheduler: Parameters<typeof createLlmAgent>[0]['scheduler']) {
  const posts: UpstreamPost[] = [];
  const runs = { count: 0 };
  const note = defineTool({
    name: 'note',
    description: 'notes',
    parameters: z.object({ text: z.string() }),
    requiresApproval: true,
    run: async () => {
      runs.count++;
      return 'noted';
    },
  });
  const agent = createLlmAgent({
    baseUrl: 'http://upstream.invalid/v1',
    model: 'up-model',
    tools: [note],
    scheduler,
    upstreamChunks: (post) => calls[posts.push(post) - 1]!,
  });
  const messagesOf = (index: number) => (posts[index]!.body as { messages: ChatMessage[] }).messages;
  return { agent, posts, runs, messagesOf };
}

/** Answers to whatever approval the run asks for, the moment `letters$` says (d = deny, o = once). */
function answering(letters$: Observable<string>) {
  let approvalId = '';
  const answers$ = letters$.pipe(
    map((letter): ApprovalAnswer => ({ approvalId, choice: letter === 'd' ? 'deny' : 'once', reason: 'not that', by: 'api' })),
  );
  const watch = tap((event: AgentEvent) => {
    if (event.type === 'approval_required') approvalId = event.approvalId;
  });
  return { answers$, watch };
}

/** The events' types, by their letters in the expected marbles. */
const TYPES = { R: 'approval_required', D: 'approval_resolved', S: 'tool_start', E: 'tool_end', T: 'text', F: 'finish', Z: 'steered', U: 'usage' };

describe('the LLM agent with a tool that needs approval', () => {
  it('waits at the call; a deny at frame N is the tool error at frame N, and the next model call carries the refusal', marbles((m) => {
    const first$ = m.cold('      -a-(f|)', { a: noteCall('call_n'), f: choice({}, 'tool_calls') });
    const second$ = m.cold('                  -----(t|)', { t: choice({ content: 'ok' }, 'stop') });
    const { answers$, watch } = answering(m.hot('--------d'));
    const expected = '           ---R----(DE)-(TF|)';
    const { agent, runs, messagesOf } = agentOver([first$, second$], m.scheduler);
    const request: AgentRequest = { model: 'm', messages: [USER], approvals: { mode: 'wait', answers$, timeoutMs: 1_000 } };

    const events$ = agent.run(request, new Cancellation()).pipe(watch);
    m.expect<unknown>(events$.pipe(map((event) => event.type))).toBeObservable(expected, TYPES);
    m.flush();
    expect(runs.count).toBe(0);
    expect(messagesOf(1).at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_n', content: 'Error: a person refused this call: not that' });
  }));

  it('is interrupted at the stop frame while it waits: the tool never starts and no model call follows', marbles((m) => {
    const first$ = m.cold('      -a-(f|)', { a: noteCall('call_n'), f: choice({}, 'tool_calls') });
    const { answers$, watch } = answering(m.hot('--------o'));
    const unsub = '              ^-----!';
    const expected = '           ---R---';
    const { agent, runs, posts } = agentOver([first$], m.scheduler);
    const request: AgentRequest = { model: 'm', messages: [USER], approvals: { mode: 'wait', answers$, timeoutMs: 1_000 } };

    m.expect<unknown>(agent.run(request, new Cancellation()).pipe(watch, map((event) => event.type)), unsub).toBeObservable(expected, TYPES);
    m.flush();
    expect(runs.count).toBe(0);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.signal.aborted).toBe(true);
  }));

  it('is not offered to a run that has nobody to approve it (Chat Completions)', marbles((m) => {
    const { agent, posts } = agentOver([m.cold('-(t|)', { t: choice({ content: 'ok' }, 'stop') })], m.scheduler);

    m.expect<unknown>(agent.run({ model: 'm', messages: [USER] }, new Cancellation()).pipe(map((event) => event.type))).toBeObservable('-(TF|)', TYPES);
    m.flush();
    expect(posts[0]!.body).not.toHaveProperty('tools');
  }));

  it('in end mode, ends the run with the request and runs nothing; resumed with a deny, the model reads the refusal', marbles((m) => {
    const first$ = m.cold('-a-(f|)', { a: noteCall('call_n'), f: choice({}, 'tool_calls') });
    const { agent, runs } = agentOver([first$], m.scheduler);

    m.expect<unknown>(agent.run({ model: 'm', messages: [USER], approvals: { mode: 'end', decided: new Map() } }, new Cancellation())).toBeObservable('---(RF|)', {
      R: { type: 'approval_required', approvalId: 'mcpr_call_n', callId: 'call_n', name: 'note', arguments: '{"text":"milk"}' },
      F: { type: 'finish', reason: 'stop' },
    });

    const after$ = m.cold('----(t|)', { t: choice({ content: 'ok' }, 'stop') });
    const resumed = agentOver([after$], m.scheduler);
    const pending: ChatMessage = { role: 'assistant', content: null, tool_calls: [{ id: 'call_n', type: 'function', function: { name: 'note', arguments: '{"text":"milk"}' } }] };
    const decided = new Map([['call_n', { approvalId: 'mcpr_call_n', choice: 'deny' as const, reason: 'no', by: 'api' as const }]]);
    const request: AgentRequest = { model: 'm', messages: [USER, pending], approvals: { mode: 'end', decided } };
    m.expect<unknown>(resumed.agent.run(request, new Cancellation()).pipe(map((event) => event.type))).toBeObservable('(DE)(TF|)', TYPES);
    m.flush();
    expect(runs.count + resumed.runs.count).toBe(0);
    expect(resumed.messagesOf(0).slice(1)).toEqual([pending, { role: 'tool', tool_call_id: 'call_n', content: 'Error: a person refused this call: no' }]);
  }));
});

describe('the LLM agent, steered', () => {
  it('takes the steers that came while it waited at the next model call, in order, after the tool calls ended', marbles((m) => {
    const first$ = m.cold('      -a-(f|)', { a: noteCall('call_n'), f: choice({}, 'tool_calls') });
    const second$ = m.cold('                    ------(t|)', { t: choice({ content: 'ok' }, 'stop') });
    const { answers$, watch } = answering(m.hot('--------d'));
    const steers$ = m.hot('      ----x-y', { x: 'use ink', y: 'and blue' });
    const expected = '           ---R----(DEZZ)(TF|)';
    const { agent, messagesOf } = agentOver([first$, second$], m.scheduler);
    const request: AgentRequest = { model: 'm', messages: [USER], steers$, approvals: { mode: 'wait', answers$, timeoutMs: 1_000 } };

    const events: AgentEvent[] = [];
    m.expect<unknown>(agent.run(request, new Cancellation()).pipe(watch, tap((event) => events.push(event)), map((event) => event.type))).toBeObservable(expected, TYPES);
    m.flush();
    expect(events.filter((event) => event.type === 'steered')).toEqual([{ type: 'steered', input: 'use ink' }, { type: 'steered', input: 'and blue' }]);
    expect(messagesOf(1).slice(-3)).toEqual([
      { role: 'tool', tool_call_id: 'call_n', content: 'Error: a person refused this call: not that' },
      { role: 'user', content: 'use ink' },
      { role: 'user', content: 'and blue' },
    ]);
  }));

  it('never in the middle of a streamed answer: a steer during the last answer gets one more model call after it', marbles((m) => {
    const first$ = m.cold('      -a-b-(f|)', { a: choice({ content: 'a' }), b: choice({ content: 'b' }), f: choice({}, 'stop') });
    const second$ = m.cold('          -(t|)', { t: choice({ content: 'ok' }, 'stop') });
    const steers$ = m.hot('      --x', { x: 'shorter' });
    const expected = '           -T-T-Z(TF|)';
    const { agent, messagesOf } = agentOver([first$, second$], m.scheduler);

    m.expect<unknown>(agent.run({ model: 'm', messages: [USER], steers$ }, new Cancellation()).pipe(map((event) => event.type))).toBeObservable(expected, TYPES);
    m.flush();
    expect(messagesOf(1)).toEqual([USER, { role: 'assistant', content: 'ab' }, { role: 'user', content: 'shorter' }]);
  }));
});
