import { describe, it } from 'vitest';
import type { UpstreamChunk, UpstreamToolCallDelta } from '../../../src/upstream/upstreamChunk.js';
import { toTurnEvents } from '../../../src/agent/llm/toTurnEvents.js';
import { marbles } from '../../support/marbles.js';

type Delta = NonNullable<NonNullable<UpstreamChunk['choices']>[number]['delta']>;
const choice = (delta: Delta, finish_reason: string | null = null): UpstreamChunk => ({ choices: [{ delta, finish_reason }] });
const calls = (...tool_calls: UpstreamToolCallDelta[]): UpstreamChunk => choice({ tool_calls });
const start = (index: number | undefined, id: string, name: string, args = ''): UpstreamToolCallDelta => ({ index, id, type: 'function', function: { name, arguments: args } });
const more = (index: number, args: string): UpstreamToolCallDelta => ({ index, function: { arguments: args } });
const call = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } });
const delta = (index: number, args: string, first?: { id: string; name: string }) => ({ type: 'tool_call_delta', index, ...first, arguments: args });
const finish = (reason: string): UpstreamChunk => choice({}, reason);

const CLIENT_TOOLS = { clientToolNames: new Set(['get_weather', 'search']) };

const CHUNKS: Record<string, UpstreamChunk> = {
  b: choice({ reasoning_content: 'think', content: 'Hi' }),
  c: choice({ content: ' there' }),
  t: choice({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'calculator', arguments: '{"expression":' } }] }),
  u: choice({ tool_calls: [{ index: 0, function: { arguments: '"1+1"}' } }] }, 'tool_calls'),
  s: { choices: [], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } },
};

describe('toTurnEvents', () => {
  it('emits reasoning before content from one chunk, then usage and the assembled turn end', marbles((m) => {
    const source$ =  m.cold('-b----c--t-u-s|', CHUNKS);
    const expected =        '-(RT)-C-------(UE|)';

    m.expect<unknown>(source$.pipe(toTurnEvents())).toBeObservable(expected, {
      R: { type: 'reasoning', delta: 'think' },
      T: { type: 'text', delta: 'Hi' },
      C: { type: 'text', delta: ' there' },
      U: { type: 'usage', usage: { inputTokens: 5, outputTokens: 3, totalTokens: 8 } },
      E: {
        type: 'turn_end',
        content: 'Hi there',
        toolCalls: [call('call_1', 'calculator', '{"expression":"1+1"}')],
        clientToolCalls: [],
        finishReason: 'tool_calls',
      },
    });
  }));
});

describe('toTurnEvents with client tools', () => {
  it('numbers the client calls among themselves: a server call between two takes no index and streams nothing', marbles((m) => {
    const source$ = m.cold('-a-b-c-d-e-----f|', {
      a: calls(start(0, 'call_w', 'get_weather', '{"city":')),
      b: calls(start(1, 'call_calc', 'calculator', '{"expression":')),
      c: calls(start(2, 'call_s', 'search')),
      d: calls(more(1, '"6*7"}')),
      e: calls(more(0, '"Paris"}'), more(2, '{"q":"rx"}')),
      f: finish('tool_calls'),
    });
    const expected =       '-A---C---(EQ)---(Z|)';

    m.expect<unknown>(source$.pipe(toTurnEvents(CLIENT_TOOLS))).toBeObservable(expected, {
      A: delta(0, '{"city":', { id: 'call_w', name: 'get_weather' }),
      C: delta(1, '', { id: 'call_s', name: 'search' }),
      E: delta(0, '"Paris"}'),
      Q: delta(1, '{"q":"rx"}'),
      Z: {
        type: 'turn_end',
        content: '',
        toolCalls: [call('call_calc', 'calculator', '{"expression":"6*7"}')],
        clientToolCalls: [call('call_w', 'get_weather', '{"city":"Paris"}'), call('call_s', 'search', '{"q":"rx"}')],
        finishReason: 'tool_calls',
      },
    });
  }));

  it('streams the interleaved fragments of two parallel client calls in order, id and name in the first delta only', marbles((m) => {
    const source$ = m.cold('-a-b-c-d-e-f-g|', {
      a: choice({ content: 'Checking.' }),
      b: calls(start(0, 'call_w', 'get_weather')),
      c: calls(start(1, 'call_s', 'search')),
      d: calls(more(0, '{"city":')),
      e: calls(more(1, '{"q":')),
      f: calls(more(0, '"Oslo"}')),
      g: calls(more(1, '"rxjs"}')),
    });
    const expected =       '-T-A-B-C-D-E-F(Z|)';

    m.expect<unknown>(source$.pipe(toTurnEvents(CLIENT_TOOLS))).toBeObservable(expected, {
      T: { type: 'text', delta: 'Checking.' },
      A: delta(0, '', { id: 'call_w', name: 'get_weather' }),
      B: delta(1, '', { id: 'call_s', name: 'search' }),
      C: delta(0, '{"city":'),
      D: delta(1, '{"q":'),
      E: delta(0, '"Oslo"}'),
      F: delta(1, '"rxjs"}'),
      Z: {
        type: 'turn_end',
        content: 'Checking.',
        toolCalls: [],
        clientToolCalls: [call('call_w', 'get_weather', '{"city":"Oslo"}'), call('call_s', 'search', '{"q":"rxjs"}')],
        finishReason: null,
      },
    });
  }));

  it('streams only the client deltas of a turn that also calls a server tool, and hands the server call over unrun', marbles((m) => {
    const source$ = m.cold('-a-b-c-d|', {
      a: calls(start(0, 'call_calc', 'calculator', '{"expression":"1+1"}')),
      b: calls(start(1, 'call_w', 'get_weather', '{"city":')),
      c: calls(more(0, ''), more(1, '"Rome"}')),
      d: finish('tool_calls'),
    });
    const expected =       '---B-C--(Z|)';

    m.expect<unknown>(source$.pipe(toTurnEvents(CLIENT_TOOLS))).toBeObservable(expected, {
      B: delta(0, '{"city":', { id: 'call_w', name: 'get_weather' }),
      C: delta(0, '"Rome"}'),
      Z: {
        type: 'turn_end',
        content: '',
        toolCalls: [call('call_calc', 'calculator', '{"expression":"1+1"}')],
        clientToolCalls: [call('call_w', 'get_weather', '{"city":"Rome"}')],
        finishReason: 'tool_calls',
      },
    });
  }));

  it('holds a call back until a fragment names it, then sends the arguments so far in its first delta', marbles((m) => {
    const source$ = m.cold('-a-b-c|', {
      a: calls({ index: 0, id: 'call_w', function: { arguments: '{"city":' } }),
      b: calls({ index: 0, function: { name: 'get_weather', arguments: '"Lima"' } }),
      c: calls(more(0, '}')),
    });
    const expected =       '---B-C(Z|)';

    m.expect<unknown>(source$.pipe(toTurnEvents(CLIENT_TOOLS))).toBeObservable(expected, {
      B: delta(0, '{"city":"Lima"', { id: 'call_w', name: 'get_weather' }),
      C: delta(0, '}'),
      Z: { type: 'turn_end', content: '', toolCalls: [], clientToolCalls: [call('call_w', 'get_weather', '{"city":"Lima"}')], finishReason: null },
    });
  }));

  it('tells whole calls apart by their ids when the upstream sends no index', marbles((m) => {
    const source$ = m.cold('-a-b-c|', {
      a: calls(start(undefined, 'call_calc', 'calculator', '{"expression":"2"}')),
      b: calls(start(undefined, 'call_w', 'get_weather', '{"city":"Oslo"}')),
      c: calls(start(undefined, 'call_s', 'search', '{"q":"x"}')),
    });
    const expected =       '---B-C(Z|)';

    m.expect<unknown>(source$.pipe(toTurnEvents(CLIENT_TOOLS))).toBeObservable(expected, {
      B: delta(0, '{"city":"Oslo"}', { id: 'call_w', name: 'get_weather' }),
      C: delta(1, '{"q":"x"}', { id: 'call_s', name: 'search' }),
      Z: {
        type: 'turn_end',
        content: '',
        toolCalls: [call('call_calc', 'calculator', '{"expression":"2"}')],
        clientToolCalls: [call('call_w', 'get_weather', '{"city":"Oslo"}'), call('call_s', 'search', '{"q":"x"}')],
        finishReason: null,
      },
    });
  }));

  it('unsubscribes from the upstream at once when its subscriber leaves mid-arguments', marbles((m) => {
    const source$ =  m.cold('-a-b-c-d-|', {
      a: calls(start(0, 'call_w', 'get_weather')),
      b: calls(more(0, '{"ci')),
      c: calls(more(0, 'ty":')),
      d: calls(more(0, '"Kyiv"}')),
    });
    const sourceSubs =      '^----!';
    const unsub =           '^----!';
    const expected =        '-A-B--';

    m.expect<unknown>(source$.pipe(toTurnEvents(CLIENT_TOOLS)), unsub).toBeObservable(expected, {
      A: delta(0, '', { id: 'call_w', name: 'get_weather' }),
      B: delta(0, '{"ci'),
    });
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));
});

describe('toTurnEvents with maxToolCallChars', () => {
  it('cuts the call in the frame its fragment crosses the cap: the upstream is unsubscribed, the turn ends length with no call to run', marbles((m) => {
    // `get_weather` and `{"city":` are 19 characters, `"Paris"}` 8 more: 27 passes a cap of 20.
    const source$ = m.cold('-a-t-b-c-|', {
      a: choice({ content: 'Checking' }),
      t: calls(start(0, 'call_w', 'get_weather', '{"city":')),
      b: calls(more(0, '"Paris"}')),
      c: choice({ content: ' never read' }),
    });
    const subs =           '^----!';
    const expected =       '-T-A-(E|)';

    m.expect<unknown>(source$.pipe(toTurnEvents({ ...CLIENT_TOOLS, maxToolCallChars: 20 }))).toBeObservable(expected, {
      T: { type: 'text', delta: 'Checking' },
      A: delta(0, '{"city":', { id: 'call_w', name: 'get_weather' }),
      E: { type: 'turn_end', content: 'Checking', toolCalls: [], clientToolCalls: [], finishReason: 'length' },
    });
    m.has(source$, subs);
  }));

  it('a cap that is only reached does not cut', marbles((m) => {
    const source$ = m.cold('-t-f|', { t: calls(start(0, 'call_1', 'calculator', '{"expression":"1+1"}')), f: finish('tool_calls') });
    const expected =       '----(E|)';

    m.expect<unknown>(source$.pipe(toTurnEvents({ maxToolCallChars: 30 }))).toBeObservable(expected, {
      E: { type: 'turn_end', content: '', toolCalls: [call('call_1', 'calculator', '{"expression":"1+1"}')], clientToolCalls: [], finishReason: 'tool_calls' },
    });
  }));
});
