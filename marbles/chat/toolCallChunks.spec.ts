import { filter } from 'rxjs';
import { describe, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agentEvent.js';
import type { UpstreamChunk, UpstreamToolCallDelta } from '../../src/upstream/upstreamChunk.js';
import { toTurnEvents } from '../../src/agent/llm/toTurnEvents.js';
import { sequenceToolCalls } from '../../src/agent/sequenceToolCalls.js';
import { toChatChunks } from '../../src/chat/toChatChunks.js';
import { META } from '../support/chatFrames.js';
import { marbles } from '../support/marbles.js';

const base = { id: META.id, object: 'chat.completion.chunk', created: META.created, model: META.model };
const chunk = (delta: object, finishReason: string | null = null) => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });
const first = (index: number, id: string, name: string, args = '') => chunk({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: args } }] });
const piece = (index: number, args: string) => chunk({ tool_calls: [{ index, function: { arguments: args } }] });
const delta = (index: number, args: string, opening?: { id: string; name: string }): AgentEvent => ({ type: 'tool_call_delta', index, ...opening, arguments: args });
const ROLE = chunk({ role: 'assistant' });
const TOOL_CALLS = chunk({}, 'tool_calls');
const FINISH: AgentEvent = { type: 'finish', reason: 'tool_calls' };

describe('toChatChunks with client tool calls', () => {
  it('puts id, type and the function name in the first delta of a call only, the arguments after it in order', marbles((m) => {
    const source$ =  m.cold('-a--b--c--f|', {
      a: delta(0, '', { id: 'call_w', name: 'get_weather' }),
      b: delta(0, '{"city":'),
      c: delta(0, '"Oslo"}'),
      f: FINISH,
    });
    const expected =        'RA--B--C--F|';

    m.expect<unknown>(source$.pipe(toChatChunks(META))).toBeObservable(expected, {
      R: ROLE,
      A: first(0, 'call_w', 'get_weather'),
      B: piece(0, '{"city":'),
      C: piece(0, '"Oslo"}'),
      F: TOOL_CALLS,
    });
  }));

  it('keeps the arguments a first delta already carries', marbles((m) => {
    const source$ =  m.cold('-a-f|', { a: delta(0, '{"city":"Oslo"}', { id: 'call_w', name: 'get_weather' }), f: FINISH });
    const expected =        'RA-F|';

    m.expect<unknown>(source$.pipe(toChatChunks(META))).toBeObservable(expected, {
      R: ROLE,
      A: first(0, 'call_w', 'get_weather', '{"city":"Oslo"}'),
      F: TOOL_CALLS,
    });
  }));

  it('streams interleaved fragments of parallel calls one call after the other, the later calls at the finish', marbles((m) => {
    const source$ =  m.cold('-a-b-c-d-e-g-f-----|', {
      a: delta(0, '', { id: 'call_w', name: 'get_weather' }),
      b: delta(1, '', { id: 'call_s', name: 'search' }),
      c: delta(0, '{"city":'),
      d: delta(1, '{"q":'),
      e: delta(0, '"Oslo"}'),
      g: delta(1, '"news"}'),
      f: FINISH,
    });
    const expected =        'RA---C---E---(BDGF)|';
    // (a group takes as many frames as it has characters: here 13 to 18, then the completion at 19)

    m.expect<unknown>(source$.pipe(toChatChunks(META))).toBeObservable(expected, {
      R: ROLE,
      A: first(0, 'call_w', 'get_weather'),
      C: piece(0, '{"city":'),
      E: piece(0, '"Oslo"}'),
      B: first(1, 'call_s', 'search'),
      D: piece(1, '{"q":'),
      G: piece(1, '"news"}'),
      F: TOOL_CALLS,
    });
  }));

  it('numbers the client calls from 0 among themselves, whatever index the upstream gave them next to a server call', marbles((m) => {
    const calls = (...tool_calls: UpstreamToolCallDelta[]): UpstreamChunk => ({ choices: [{ delta: { tool_calls }, finish_reason: null }] });
    const source$ = m.cold('-a-b-c-d-f|', {
      a: calls({ index: 0, id: 'call_calc', type: 'function', function: { name: 'calculator', arguments: '{"expression":"6*7"}' } }),
      b: calls({ index: 1, id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '' } }),
      c: calls({ index: 2, id: 'call_s', type: 'function', function: { name: 'search', arguments: '{"q":' } }),
      d: calls({ index: 1, function: { arguments: '{"city":"Oslo"}' } }, { index: 2, function: { arguments: '"news"}' } }),
      f: { choices: [{ delta: {}, finish_reason: 'tool_calls' }] },
    });
    const expected =       'R--A---C--(BDS|)';
    const events$ = source$.pipe(
      toTurnEvents({ clientToolNames: new Set(['get_weather', 'search']) }),
      filter((event): event is AgentEvent => event.type !== 'turn_end'),
    );

    m.expect<unknown>(events$.pipe(toChatChunks(META))).toBeObservable(expected, {
      R: ROLE,
      A: first(0, 'call_w', 'get_weather'),
      C: piece(0, '{"city":"Oslo"}'),
      B: first(1, 'call_s', 'search', '{"q":'),
      D: piece(1, '"news"}'),
      S: chunk({}, 'stop'),
    });
  }));
});

describe('sequenceToolCalls', () => {
  const EVENTS: Record<string, AgentEvent> = {
    a: delta(0, 'a'),
    b: delta(1, 'b'),
    c: delta(2, 'c'),
    t: { type: 'text', delta: 'hi' },
    f: FINISH,
  };

  it('passes the first call through, holds the others and releases them in index order before the finish', marbles((m) => {
    const source$ =  m.cold('-a-c-a-b-t-f-----|', EVENTS);
    const expected =        '-a---a---t-(bcf)-|';

    m.expect(source$.pipe(sequenceToolCalls())).toBeObservable(expected, EVENTS);
  }));

  it('releases held calls when the run completes without a finish', marbles((m) => {
    const source$ =  m.cold('-a-b-a-|', EVENTS);
    const expected =        '-a---a-(b|)';

    m.expect(source$.pipe(sequenceToolCalls())).toBeObservable(expected, EVENTS);
  }));

  it('drops held calls when the run fails: the error ends the stream', marbles((m) => {
    const source$ =  m.cold('-a-b-#', EVENTS);
    const expected =        '-a---#';

    m.expect(source$.pipe(sequenceToolCalls())).toBeObservable(expected, EVENTS);
  }));
});
