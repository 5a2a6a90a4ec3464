import { describe, it } from 'vitest';
import type { AgentEvent, FinishReason } from '../../src/agent/agentEvent.js';
import type { ChatChunkChoice, ChatCompletionChunk, ChatDelta } from '../../src/chat/chatCompletionChunk.js';
import { toChatChunks } from '../../src/chat/toChatChunks.js';
import { marbles } from '../support/marbles.js';
import { META } from '../support/chatFrames.js';

const EVENTS = {
  a: { type: 'text', delta: 'a' },
  s: { type: 'tool_start', callId: 'call_1', name: 'calculator', arguments: '{"expression":"1+1"}' },
  e: { type: 'tool_end', callId: 'call_1', name: 'calculator', result: '2', durationMs: 3 },
  x: { type: 'tool_end', callId: 'call_2', name: 'current_time', error: 'bad zone', durationMs: 1 },
  p: { type: 'tool_progress', callId: 'call_3', name: 'files__copy', progress: 2, total: 4, message: 'half way' },
  f: { type: 'finish', reason: 'stop' },
} satisfies Record<string, AgentEvent>;

const base = { id: META.id, object: 'chat.completion.chunk', created: META.created, model: META.model } as const;
const choice = (delta: ChatDelta, finish: FinishReason | null = null): ChatChunkChoice[] => [{ index: 0, delta, logprobs: null, finish_reason: finish }];
const CHUNKS: Record<string, ChatCompletionChunk> = {
  R: { ...base, choices: choice({ role: 'assistant' }) },
  A: { ...base, choices: choice({ content: 'a' }) },
  F: { ...base, choices: choice({}, 'stop') },
  S: { ...base, choices: choice({}), rxgate_tool: { type: 'start', call_id: 'call_1', name: 'calculator', arguments: '{"expression":"1+1"}' } },
  E: { ...base, choices: choice({}), rxgate_tool: { type: 'end', call_id: 'call_1', name: 'calculator', result: '2', duration_ms: 3 } },
  X: { ...base, choices: choice({}), rxgate_tool: { type: 'end', call_id: 'call_2', name: 'current_time', error: 'bad zone', duration_ms: 1 } },
  P: { ...base, choices: choice({}), rxgate_tool: { type: 'progress', call_id: 'call_3', name: 'files__copy', progress: 2, total: 4, message: 'half way' } },
};

describe('tool progress in chat chunks', () => {
  it('is off by default: tool events leave no chunk', marbles((m) => {
    const events$ = m.cold('-s-e-x-a-f|', EVENTS);
    const expected =       'R------A-F|';
    m.expect(events$.pipe(toChatChunks(META))).toBeObservable(expected, CHUNKS);
  }));

  it('when on, each tool start and end is a chunk with an empty delta and an rxgate_tool field', marbles((m) => {
    const events$ = m.cold('-s-e-x-a-f|', EVENTS);
    const expected =       'RS-E-X-A-F|';
    m.expect(events$.pipe(toChatChunks({ ...META, toolProgress: true }))).toBeObservable(expected, CHUNKS);
  }));

  it('when on, the progress an (MCP) tool reports is a chunk too; off, it leaves none', marbles((m) => {
    const events$ = m.cold('-p-f|', EVENTS);
    m.expect(events$.pipe(toChatChunks({ ...META, toolProgress: true }))).toBeObservable('RP-F|', CHUNKS);
    m.expect(events$.pipe(toChatChunks(META))).toBeObservable('R--F|', CHUNKS);
  }));
});
