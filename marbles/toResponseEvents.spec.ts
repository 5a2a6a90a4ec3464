import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/agent/agentEvent.js';
import { AgentError } from '../src/errors/AgentError.js';
import type { ResponseMeta } from '../src/responses/responseObject.js';
import { ResponseDraft } from '../src/responses/ResponseDraft.js';
import { toResponseEvents } from '../src/responses/toResponseEvents.js';
import { marbles } from './support/marbles.js';

const META: ResponseMeta = { id: 'resp_1', createdAt: 1700000000, model: 'm', instructions: null, previousResponseId: null, store: true, background: false };
const EVENTS: Record<string, AgentEvent> = {
  t: { type: 'text', delta: 'hi' },
  s: { type: 'tool_start', callId: 'c1', name: 'calculator', arguments: '{"expression":"1+1"}' },
  e: { type: 'tool_end', callId: 'c1', name: 'calculator', result: '2', durationMs: 3 },
  u: { type: 'usage', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } },
  l: { type: 'finish', reason: 'length' },
};
const msgId = expect.stringMatching(/^msg_/);
const fcId = expect.stringMatching(/^fc_/);
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

  it('encodes a tool call as a function_call item, done when the tool ends', marbles((m) => {
    const source$ =  m.cold('------s------e------|', EVENTS);
    const expected =        '(AB)--(CDE)--F------(G|)';
    const item = { id: fcId, type: 'function_call', call_id: 'c1', name: 'calculator' };

    m.expect<unknown>(source$.pipe(toResponseEvents(new ResponseDraft(META)))).toBeObservable(expected, {
      A: opening.A,
      B: opening.B,
      C: at(2, 'response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } }),
      D: at(3, 'response.function_call_arguments.delta', { item_id: fcId, output_index: 0, delta: '{"expression":"1+1"}' }),
      E: at(4, 'response.function_call_arguments.done', { item_id: fcId, output_index: 0, name: 'calculator', arguments: '{"expression":"1+1"}' }),
      F: at(5, 'response.output_item.done', { output_index: 0, item: { ...item, status: 'completed', arguments: '{"expression":"1+1"}' } }),
      G: at(6, 'response.completed', { response: response('completed', { output: [{ ...item, status: 'completed', arguments: '{"expression":"1+1"}' }] }) }),
    });
  }));

  it('ends with response.incomplete when the run finished with length', marbles((m) => {
    const source$ =  m.cold('------t------l|', EVENTS);
    const expected =        '(AB)--(CDE)---(GHIJ|)';

    m.expect<unknown>(source$.pipe(toResponseEvents(new ResponseDraft(META)))).toBeObservable(expected, {
      ...opening,
      G: at(5, 'response.output_text.done', { ...where, text: 'hi', logprobs: [] }),
      H: at(6, 'response.content_part.done', { ...where, part: part('hi') }),
      I: at(7, 'response.output_item.done', { output_index: 0, item: expect.objectContaining({ status: 'completed' }) }),
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
