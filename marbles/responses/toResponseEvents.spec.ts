import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agentEvent.js';
import { AgentError } from '../../src/errors/AgentError.js';
import type { ResponseMeta } from '../../src/openai/responseObject.js';
import { ResponseDraft } from '../../src/responses/ResponseDraft.js';
import { toResponseEvents } from '../../src/responses/toResponseEvents.js';
import { marbles } from '../support/marbles.js';

const META: ResponseMeta = { id: 'resp_1', createdAt: 1700000000, model: 'm', instructions: null, previousResponseId: null, store: true, background: false };
const EVENTS: Record<string, AgentEvent> = {
  t: { type: 'text', delta: 'hi' },
  s: { type: 'tool_start', callId: 'c1', name: 'calculator', arguments: '{"expression":"1+1"}' },
  e: { type: 'tool_end', callId: 'c1', name: 'calculator', result: '2', durationMs: 3 },
  u: { type: 'usage', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } },
  l: { type: 'finish', reason: 'length' },
};
const REASONING: AgentEvent = { type: 'reasoning', delta: 'hm' };
const FAILED: AgentEvent = { type: 'tool_end', callId: 'c1', name: 'calculator', error: 'division by zero', durationMs: 1 };
const msgId = expect.stringMatching(/^msg_/);
const fcId = expect.stringMatching(/^fc_/);
const mcpId = expect.stringMatching(/^mcp_/);
const rsId = expect.stringMatching(/^rs_/);
const at = (sequence_number: number, type: string, fields: object = {}) => ({ type, sequence_number, ...fields });
const response = (status: string, fields: object = {}) => expect.objectContaining({ id: 'resp_1', object: 'response', status, ...fields });
const where = { item_id: msgId, output_index: 0, content_index: 0 };
const part = (text: string) => ({ type: 'output_text', text, annotations: [] });
const opening = {
  A: at(0, 'response.created', { response: response('in_progress', { usage: null }) }),
  B: at(1, 'response.in_progress', { response: response('in_progress') }),
  C: at(2, 'response.output_item.added', { output_index: 0, item: { id: msgId, type: 'message', status: 'in_progress', role: 'assistant', content: [] } }),
  D: at(3, 'response.content_part.added', { ...where, part: part('') }),
  E: at(4, 'response.output_text.delta', { ...where, delta: 'hi', logprobs: [] }),
};

describe('toResponseEvents', () => {
  it('opens the response at subscription, a message item at the first text, and closes both when the run completes', marbles((m) => {
    const source$ =  m.cold('------t------t------u|', EVENTS);
    const expected =        '(AB)--(CDE)--F-------(GHIJ|)';

    m.expect<unknown>(source$.pipe(toResponseEvents(new ResponseDraft(META)))).toBeObservable(expected, {
      ...opening,
      F: at(5, 'response.output_text.delta', { ...where, delta: 'hi', logprobs: [] }),
      G: at(6, 'response.output_text.done', { ...where, text: 'hihi', logprobs: [] }),
      H: at(7, 'response.content_part.done', { ...where, part: part('hihi') }),
      I: at(8, 'response.output_item.done', { output_index: 0, item: { id: msgId, type: 'message', status: 'completed', role: 'assistant', content: [part('hihi')] } }),
      J: at(9, 'response.completed', {
        response: response('completed', { usage: { input_tokens: 3, input_tokens_details: { cached_tokens: 0 }, output_tokens: 2, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 5 } }),
      }),
    });
  }));

  it('encodes a tool the agent runs as an mcp_call item of server rxgate, done when the tool ends', marbles((m) => {
    const source$ =  m.cold('------s------e------|', EVENTS);
    const expected =        '(AB)--(CDEF)-(GH)---(I|)';
    const item = { id: mcpId, type: 'mcp_call', server_label: 'rxgate', name: 'calculator' };
    const where = { item_id: mcpId, output_index: 0 };
    const done = { ...item, status: 'completed', arguments: '{"expression":"1+1"}', output: '2', error: null };

    m.expect<unknown>(source$.pipe(toResponseEvents(new ResponseDraft(META)))).toBeObservable(expected, {
      A: opening.A,
      B: opening.B,
      C: at(2, 'response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', arguments: '', output: null, error: null } }),
      D: at(3, 'response.mcp_call.in_progress', where),
      E: at(4, 'response.mcp_call_arguments.delta', { ...where, delta: '{"expression":"1+1"}' }),
      F: at(5, 'response.mcp_call_arguments.done', { ...where, arguments: '{"expression":"1+1"}' }),
      G: at(6, 'response.mcp_call.completed', where),
      H: at(7, 'response.output_item.done', { output_index: 0, item: done }),
      I: at(8, 'response.completed', { response: response('completed', { output: [done] }) }),
    });
  }));

  it('marks the mcp_call item of a failed tool failed, with its error', marbles((m) => {
    const source$ =  m.cold('------s------x------|', { ...EVENTS, x: FAILED });
    const expected =        '(AB)--(CDEF)-(GH)---(I|)';
    const where = { item_id: mcpId, output_index: 0 };
    const failed = { id: mcpId, type: 'mcp_call', server_label: 'rxgate', name: 'calculator', status: 'failed', arguments: '{"expression":"1+1"}', output: null, error: 'division by zero' };

    m.expect<unknown>(source$.pipe(toResponseEvents(new ResponseDraft(META)))).toBeObservable(expected, {
      A: opening.A,
      B: opening.B,
      C: expect.objectContaining({ type: 'response.output_item.added' }),
      D: expect.objectContaining({ type: 'response.mcp_call.in_progress' }),
      E: expect.objectContaining({ type: 'response.mcp_call_arguments.delta' }),
      F: expect.objectContaining({ type: 'response.mcp_call_arguments.done' }),
      G: at(6, 'response.mcp_call.failed', where),
      H: at(7, 'response.output_item.done', { output_index: 0, item: failed }),
      I: at(8, 'response.completed', { response: response('completed', { output: [failed] }) }),
    });
  }));

  it('shows an MCP tool as its server shows it: server_label the server, name the tool there', marbles((m) => {
    const start: AgentEvent = { type: 'tool_start', callId: 'c1', name: 'files__read', arguments: '{}', origin: { server: 'files', tool: 'read' } };
    const end: AgentEvent = { type: 'tool_end', callId: 'c1', name: 'files__read', result: 'text', durationMs: 1 };
    const source$ =  m.cold('------s------e------|', { s: start, e: end });
    const expected =        '(AB)--(CDEF)-(GH)---(I|)';
    const done = { id: mcpId, type: 'mcp_call', server_label: 'files', name: 'read', status: 'completed', arguments: '{}', output: 'text', error: null };

    m.expect<unknown>(source$.pipe(toResponseEvents(new ResponseDraft(META)))).toBeObservable(expected, {
      A: opening.A,
      B: opening.B,
      C: at(2, 'response.output_item.added', { output_index: 0, item: expect.objectContaining({ server_label: 'files', name: 'read' }) }),
      D: expect.objectContaining({ type: 'response.mcp_call.in_progress' }),
      E: expect.objectContaining({ type: 'response.mcp_call_arguments.delta' }),
      F: expect.objectContaining({ type: 'response.mcp_call_arguments.done' }),
      G: expect.objectContaining({ type: 'response.mcp_call.completed' }),
      H: at(7, 'response.output_item.done', { output_index: 0, item: done }),
      I: at(8, 'response.completed', { response: response('completed', { output: [done] }) }),
    });
  }));

  it('encodes reasoning as a reasoning item with one summary_text part, closed when the text starts', marbles((m) => {
    const source$ =  m.cold('------r------r------t--------|', { ...EVENTS, r: REASONING });
    const expected =        '(AB)--(CDE)--F------(GHIJKL)-(NOPQ|)';
    const where = { item_id: rsId, output_index: 0, summary_index: 0 };
    const summary = { type: 'summary_text', text: 'hmhm' };
    const reasoning = { id: rsId, type: 'reasoning', status: 'completed', summary: [summary] };
    const text = { item_id: msgId, output_index: 1, content_index: 0 };

    m.expect<unknown>(source$.pipe(toResponseEvents(new ResponseDraft(META)))).toBeObservable(expected, {
      A: opening.A,
      B: opening.B,
      C: at(2, 'response.output_item.added', { output_index: 0, item: { id: rsId, type: 'reasoning', status: 'in_progress', summary: [] } }),
      D: at(3, 'response.reasoning_summary_part.added', { ...where, part: { type: 'summary_text', text: '' } }),
      E: at(4, 'response.reasoning_summary_text.delta', { ...where, delta: 'hm' }),
      F: at(5, 'response.reasoning_summary_text.delta', { ...where, delta: 'hm' }),
      G: at(6, 'response.reasoning_summary_text.done', { ...where, text: 'hmhm' }),
      H: at(7, 'response.reasoning_summary_part.done', { ...where, part: summary }),
      I: at(8, 'response.output_item.done', { output_index: 0, item: reasoning }),
      J: at(9, 'response.output_item.added', { output_index: 1, item: { id: msgId, type: 'message', status: 'in_progress', role: 'assistant', content: [] } }),
      K: at(10, 'response.content_part.added', { ...text, part: part('') }),
      L: at(11, 'response.output_text.delta', { ...text, delta: 'hi', logprobs: [] }),
      N: at(12, 'response.output_text.done', { ...text, text: 'hi', logprobs: [] }),
      O: at(13, 'response.content_part.done', { ...text, part: part('hi') }),
      P: at(14, 'response.output_item.done', { output_index: 1, item: expect.objectContaining({ status: 'completed' }) }),
      Q: at(15, 'response.completed', { response: response('completed', { output: [reasoning, expect.objectContaining({ type: 'message' })] }) }),
    });
  }));

  it('encodes client calls as function_call items, one after the other, done at the end of the run', marbles((m) => {
    const source$ =  m.cold<AgentEvent>('------a------b------c------d------f------|', {
      a: { type: 'tool_call_delta', index: 0, id: 'call_w', name: 'get_weather', arguments: '' },
      b: { type: 'tool_call_delta', index: 1, id: 'call_s', name: 'search', arguments: '{"q":' },
      c: { type: 'tool_call_delta', index: 0, arguments: '{"city":"Oslo"}' },
      d: { type: 'tool_call_delta', index: 1, arguments: '"news"}' },
      f: { type: 'finish', reason: 'tool_calls' },
    });
    const expected =        '(AB)--C-------------D-------------(EFGHI)(JKL|)';
    const weather = { id: fcId, type: 'function_call', call_id: 'call_w', name: 'get_weather' };
    const search = { id: fcId, type: 'function_call', call_id: 'call_s', name: 'search' };
    const first = { item_id: fcId, output_index: 0 };
    const second = { item_id: fcId, output_index: 1 };

    m.expect<unknown>(source$.pipe(toResponseEvents(new ResponseDraft(META)))).toBeObservable(expected, {
      A: opening.A,
      B: opening.B,
      C: at(2, 'response.output_item.added', { output_index: 0, item: { ...weather, status: 'in_progress', arguments: '' } }),
      D: at(3, 'response.function_call_arguments.delta', { ...first, delta: '{"city":"Oslo"}' }),
      E: at(4, 'response.function_call_arguments.done', { ...first, name: 'get_weather', arguments: '{"city":"Oslo"}' }),
      F: at(5, 'response.output_item.done', { output_index: 0, item: { ...weather, status: 'completed', arguments: '{"city":"Oslo"}' } }),
      G: at(6, 'response.output_item.added', { output_index: 1, item: { ...search, status: 'in_progress', arguments: '' } }),
      H: at(7, 'response.function_call_arguments.delta', { ...second, delta: '{"q":' }),
      I: at(8, 'response.function_call_arguments.delta', { ...second, delta: '"news"}' }),
      J: at(9, 'response.function_call_arguments.done', { ...second, name: 'search', arguments: '{"q":"news"}' }),
      K: at(10, 'response.output_item.done', { output_index: 1, item: { ...search, status: 'completed', arguments: '{"q":"news"}' } }),
      L: at(11, 'response.completed', { response: response('completed', { output: [expect.objectContaining({ call_id: 'call_w' }), expect.objectContaining({ call_id: 'call_s' })] }) }),
    });
  }));

  it('ends with response.incomplete when the run finished with length', marbles((m) => {
    const source$ =  m.cold('------t------l|', EVENTS);
    const expected =        '(AB)--(CDE)---(GHIJ|)';

    m.expect<unknown>(source$.pipe(toResponseEvents(new ResponseDraft(META)))).toBeObservable(expected, {
      ...opening,
      G: at(5, 'response.output_text.done', { ...where, text: 'hi', logprobs: [] }),
      H: at(6, 'response.content_part.done', { ...where, part: part('hi') }),
      I: at(7, 'response.output_item.done', { output_index: 0, item: expect.objectContaining({ status: 'incomplete' }) }),
      J: at(8, 'response.incomplete', { response: response('incomplete', { incomplete_details: { reason: 'max_output_tokens' } }) }),
    });
  }));

  it('ends a failed run with one response.failed carrying the error, then completes', marbles((m) => {
    const source$ =  m.cold('------t------#', EVENTS, new AgentError('the tool broke', 'tool_failed'));
    const expected =        '(AB)--(CDE)--(F|)';

    m.expect<unknown>(source$.pipe(toResponseEvents(new ResponseDraft(META)))).toBeObservable(expected, {
      ...opening,
      F: at(5, 'response.failed', {
        response: response('failed', { error: { code: 'tool_failed', message: 'rxgate: the tool broke' }, output: [expect.objectContaining({ status: 'incomplete' })] }),
      }),
    });
  }));

  it('emits no terminal when unsubscribed early: the caller snapshots the draft instead', marbles((m) => {
    const source$ =  m.cold('------t------t---', EVENTS);
    const sub =             '^---------!';
    const expected =        '(AB)--(CDE)';

    m.expect<unknown>(source$.pipe(toResponseEvents(new ResponseDraft(META))), sub).toBeObservable(expected, opening);
  }));
});
