import { describe, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agentEvent.js';
import { toChatChunks } from '../../src/chat/toChatChunks.js';
import { META } from '../support/chatFrames.js';
import { marbles } from '../support/marbles.js';

const base = { id: META.id, object: 'chat.completion.chunk', created: META.created, model: META.model };
const chunk = (delta: object, finishReason: string | null = null) => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });
const calls = (...pieces: object[]) => chunk({ tool_calls: pieces });
const delta = (index: number, args: string, opening?: { id: string; name: string }): AgentEvent => ({ type: 'tool_call_delta', index, ...opening, arguments: args });
const META_WITH_CUSTOM = { ...META, customTools: new Set(['apply_patch']) };
const ROLE = chunk({ role: 'assistant' });
const TOOL_CALLS = chunk({}, 'tool_calls');
const FINISH: AgentEvent = { type: 'finish', reason: 'tool_calls' };

describe('toChatChunks with a client custom tool', () => {
  it('sends a custom call\'s id and name at its first delta and its input whole, unwrapped, at the finish', marbles((m) => {
    const source$ =  m.cold('-a--b--c--f----|', {
      a: delta(0, '', { id: 'call_p', name: 'apply_patch' }),
      b: delta(0, '{"input":"+x'),
      c: delta(0, '\\ny"}'),
      f: FINISH,
    });
    const expected =        'RA--------(IF)-|';

    m.expect<unknown>(source$.pipe(toChatChunks(META_WITH_CUSTOM))).toBeObservable(expected, {
      R: ROLE,
      A: calls({ index: 0, id: 'call_p', type: 'custom', custom: { name: 'apply_patch', input: '' } }),
      I: calls({ index: 0, custom: { input: '+x\ny' } }),
      F: TOOL_CALLS,
    });
  }));

  it('streams a function call beside it as its pieces come, the custom call held after it and closed at the finish', marbles((m) => {
    const source$ =  m.cold('-a--b--c--d--f----|', {
      a: delta(0, '', { id: 'call_w', name: 'get_weather' }),
      b: delta(1, '{"input":"+x"}', { id: 'call_p', name: 'apply_patch' }),
      c: delta(0, '{"city":"Oslo"}'),
      d: delta(1, ''),
      f: FINISH,
    });
    const expected =        'RW-----C-----(PIF)|';

    m.expect<unknown>(source$.pipe(toChatChunks(META_WITH_CUSTOM))).toBeObservable(expected, {
      R: ROLE,
      W: calls({ index: 0, id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '' } }),
      C: calls({ index: 0, function: { arguments: '{"city":"Oslo"}' } }),
      P: calls({ index: 1, id: 'call_p', type: 'custom', custom: { name: 'apply_patch', input: '' } }),
      I: calls({ index: 1, custom: { input: '+x' } }),
      F: TOOL_CALLS,
    });
  }));

  it('gives a run that ends without a finish the custom input before its stop', marbles((m) => {
    const source$ =  m.cold('-a|', { a: delta(0, '{"input":"+x"}', { id: 'call_p', name: 'apply_patch' }) });
    const expected =        'RA(IS|)';

    m.expect<unknown>(source$.pipe(toChatChunks(META_WITH_CUSTOM))).toBeObservable(expected, {
      R: ROLE,
      A: calls({ index: 0, id: 'call_p', type: 'custom', custom: { name: 'apply_patch', input: '' } }),
      I: calls({ index: 0, custom: { input: '+x' } }),
      S: chunk({}, 'stop'),
    });
  }));
});
