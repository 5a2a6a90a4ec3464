import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agentEvent.js';
import type { MessageStreamEvent } from '../../src/messages/messageObjects.js';
import { toMessageEvents } from '../../src/messages/toMessageEvents.js';
import { TEST_MESSAGE_META } from '../../src/testing.js';
import { marbles } from '../support/marbles.js';

const call = (index: number, fragment: string, id?: string): AgentEvent =>
  id === undefined ? { type: 'tool_call_delta', index, arguments: fragment } : { type: 'tool_call_delta', index, id, name: `tool_${id}`, arguments: fragment };

/** The events of the stream, written out by hand so that the encoder is checked, not mirrored. */
const start: MessageStreamEvent = {
  type: 'message_start',
  message: {
    id: 'msg_test',
    type: 'message',
    role: 'assistant',
    model: 'rxgate-agent',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 1 },
  },
};
const textStart = (index: number): MessageStreamEvent => ({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
const text = (index: number, delta: string): MessageStreamEvent => ({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: delta } });
const thinkingStart = (index: number): MessageStreamEvent => ({
  type: 'content_block_start',
  index,
  content_block: { type: 'thinking', thinking: '', signature: '' },
});
const thinking = (index: number, delta: string): MessageStreamEvent => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'thinking_delta', thinking: delta },
});
const signature = (index: number): MessageStreamEvent => ({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: '' } });
const toolStart = (index: number, id: string): MessageStreamEvent => ({
  type: 'content_block_start',
  index,
  content_block: { type: 'tool_use', id, name: `tool_${id}`, input: {} },
});
const json = (index: number, partial: string): MessageStreamEvent => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'input_json_delta', partial_json: partial },
});
const stop = (index: number): MessageStreamEvent => ({ type: 'content_block_stop', index });
const messageDelta = (stopReason: string, inputTokens: number, outputTokens: number): MessageStreamEvent =>
  ({
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { input_tokens: inputTokens, output_tokens: outputTokens },
  }) as MessageStreamEvent;
const messageStop: MessageStreamEvent = { type: 'message_stop' };

describe('toMessageEvents', () => {
  it('sends message_start at subscription, before the source says anything', marbles((m) => {
    const source$ = m.cold<AgentEvent>('---t---|', { t: { type: 'text', delta: 'Hi' } });
    const expected =                   'S--(BT)(EDX|)';

    m.expect(source$.pipe(toMessageEvents(TEST_MESSAGE_META))).toBeObservable(expected, {
      S: start,
      B: textStart(0),
      T: text(0, 'Hi'),
      E: stop(0),
      D: messageDelta('end_turn', 12, 0),
      X: messageStop,
    });
  }));

  it('numbers text, thinking, tool_use and text blocks in order; the text after a call waits for the call to end', marbles((m) => {
    const source$ = m.cold<AgentEvent>('-t-----r-----a-----u-----c-----f-----|', {
      t: { type: 'text', delta: 'Let me think' },
      r: { type: 'reasoning', delta: 'hm' },
      a: call(0, '{"q":1}', 'a'),
      u: { type: 'text', delta: 'after' },
      c: call(0, ''),
      f: { type: 'finish', reason: 'tool_calls' },
    });
    const expected =                   'S(BT)--(ERP)-(QVCJ)------------(KLMN)(DX|)';

    m.expect(source$.pipe(toMessageEvents(TEST_MESSAGE_META))).toBeObservable(expected, {
      S: start,
      B: textStart(0),
      T: text(0, 'Let me think'),
      E: stop(0),
      R: thinkingStart(1),
      P: thinking(1, 'hm'),
      Q: signature(1),
      V: stop(1),
      C: toolStart(2, 'a'),
      J: json(2, '{"q":1}'),
      K: stop(2),
      L: textStart(3),
      M: text(3, 'after'),
      N: stop(3),
      D: messageDelta('tool_use', 12, 0),
      X: messageStop,
    } as Record<string, MessageStreamEvent>);
  }));

  it('gives two interleaved parallel calls a block each, in index order, with every fragment', marbles((m) => {
    const source$ = m.cold<AgentEvent>('-a-----b-----c-----d-----f-----|', {
      a: call(0, '{"x":', 'a'),
      b: call(1, '{"y":', 'b'),
      c: call(0, '1}'),
      d: call(1, '2}'),
      f: { type: 'finish', reason: 'tool_calls' },
    });
    const expected =                   'S(AJ)--------K-----------(EBLF)(DX|)';

    m.expect(source$.pipe(toMessageEvents(TEST_MESSAGE_META))).toBeObservable(expected, {
      S: start,
      A: toolStart(0, 'a'),
      J: json(0, '{"x":'),
      K: json(0, '1}'),
      E: stop(0),
      B: toolStart(1, 'b'),
      L: json(1, '{"y":2}'),
      F: stop(1),
      D: messageDelta('tool_use', 12, 0),
      X: messageStop,
    });
  }));

  it('opens the block of a call with its first fragment in it when text was open (the fragment LiteLLM loses)', marbles((m) => {
    const source$ = m.cold<AgentEvent>('-t-----a-----|', { t: { type: 'text', delta: 'Checking' }, a: call(0, '{"city":"Oslo"}', 'a') });
    const expected =                   'S(BT)--(ECJ)-(KDX|)';

    m.expect(source$.pipe(toMessageEvents(TEST_MESSAGE_META))).toBeObservable(expected, {
      S: start,
      B: textStart(0),
      T: text(0, 'Checking'),
      E: stop(0),
      C: toolStart(1, 'a'),
      J: json(1, '{"city":"Oslo"}'),
      K: stop(1),
      D: messageDelta('end_turn', 12, 0),
      X: messageStop,
    });
  }));

  it('shows no block for a server tool, ends the blocks before it, and sums the usage of every model call', marbles((m) => {
    const source$ = m.cold<AgentEvent>('-t-----s-----e-----u-----v-----w-----|', {
      t: { type: 'text', delta: 'Let me add' },
      s: { type: 'tool_start', callId: 'c1', name: 'calculator', arguments: '{}' },
      e: { type: 'tool_end', callId: 'c1', name: 'calculator', result: '42', durationMs: 1 },
      u: { type: 'usage', usage: { inputTokens: 20, outputTokens: 5, totalTokens: 25 } },
      v: { type: 'text', delta: '42' },
      w: { type: 'usage', usage: { inputTokens: 30, outputTokens: 2, totalTokens: 32, cachedInputTokens: 16 } },
    });
    const expected =                   'S(BT)--E-----------------(CV)--------(FDX|)';

    m.expect(source$.pipe(toMessageEvents(TEST_MESSAGE_META))).toBeObservable(expected, {
      S: start,
      B: textStart(0),
      T: text(0, 'Let me add'),
      E: stop(0),
      C: textStart(1),
      V: text(1, '42'),
      F: stop(1),
      D: {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { input_tokens: 50, output_tokens: 7, cache_read_input_tokens: 16 },
      },
      X: messageStop,
    });
  }));

  it('ends with stop_reason max_tokens for a cut answer and refusal for a refusal', marbles((m) => {
    const cut$ = m.cold<AgentEvent>('-t-f-|', { t: { type: 'text', delta: 'a' }, f: { type: 'finish', reason: 'length' } });
    const refused$ = m.cold<AgentEvent>('-r-f-|', { r: { type: 'refusal', delta: 'No.' }, f: { type: 'finish', reason: 'stop' } });
    const reasonOf = (events: MessageStreamEvent[]) => events.flatMap((event) => (event.type === 'message_delta' ? [event.delta.stop_reason] : []));
    const cut: MessageStreamEvent[] = [];
    const refused: MessageStreamEvent[] = [];
    cut$.pipe(toMessageEvents(TEST_MESSAGE_META)).subscribe((event) => cut.push(event));
    refused$.pipe(toMessageEvents(TEST_MESSAGE_META)).subscribe((event) => refused.push(event));
    m.flush();

    expect(reasonOf(cut)).toEqual(['max_tokens']);
    expect(reasonOf(refused)).toEqual(['refusal']);
  }));
});
