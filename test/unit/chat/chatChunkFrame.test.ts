import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/agent/agentEvent.js';
import { chatChunkFrame } from '../../../src/chat/chatChunkFrame.js';
import type { ChatCompletionChunk } from '../../../src/chat/chatCompletionChunk.js';
import { toChatChunks } from '../../../src/chat/toChatChunks.js';
import { jsonFrame } from '../../../src/sse/jsonFrame.js';

const EVENTS: AgentEvent[] = [
  { type: 'text', delta: 'plain text' },
  { type: 'text', delta: 'a "quoted"\nline \u2028 😀' },
  { type: 'reasoning', delta: 'thinking' },
  { type: 'tool_call_delta', index: 0, id: 'call_1', name: 'lookup', arguments: '{"q"' },
  { type: 'tool_call_delta', index: 0, arguments: ':1}' },
  { type: 'tool_start', callId: 'call_2', name: 'calculator', arguments: '{}' },
  { type: 'tool_end', callId: 'call_2', name: 'calculator', result: '42', durationMs: 3 },
  { type: 'usage', usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } },
  { type: 'finish', reason: 'stop' },
];

describe('chatChunkFrame', () => {
  it.each([
    { includeUsage: false, toolProgress: false },
    { includeUsage: true, toolProgress: true },
  ])('writes every chunk of the encoder byte for byte as jsonFrame does (%o)', async (options) => {
    const meta = { id: 'chatcmpl-"odd"', created: 1_764_547_200, model: 'model\n"é"', ...options };
    const chunks = await lastValueFrom(from(EVENTS).pipe(toChatChunks(meta), toArray()));
    const frame = chatChunkFrame(meta);

    expect(chunks.map(frame)).toEqual(chunks.map(jsonFrame));
  });

  it('writes a chunk a user operator reshaped (an extra field, another key order, another delta) as jsonFrame does', () => {
    const meta = { id: 'chatcmpl-1', created: 1, model: 'm', includeUsage: false };
    const chunk: ChatCompletionChunk = {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [{ index: 0, delta: { content: 'x' }, logprobs: null, finish_reason: null }],
    };
    const frame = chatChunkFrame(meta);
    const reshaped = [
      { ...chunk, system_fingerprint: 'fp' },
      { choices: chunk.choices, id: chunk.id, object: chunk.object, created: chunk.created, model: chunk.model },
      { ...chunk, model: 'other' },
      { ...chunk, choices: [{ ...chunk.choices[0]!, delta: { content: 'x', reasoning_content: 'r' } }] },
      { ...chunk, choices: [{ ...chunk.choices[0]!, delta: { reasoning_content: 'r', content: 'x' } }] },
      {
        ...chunk,
        choices: [{ ...chunk.choices[0]!, delta: Object.assign(Object.create({ role: 'assistant' }) as object, { content: 'x' }) }],
      },
      { ...chunk, choices: [{ ...chunk.choices[0]!, delta: { content: 'say "hi"\n' }, finish_reason: 'stop' as const }] },
      { ...chunk, choices: [{ ...chunk.choices[0]!, delta: { reasoning_content: 'think "twice"\t🌍' } }] },
      { ...chunk, choices: [{ ...chunk.choices[0]!, delta: { reasoning_content: 'plain' } }] },
    ];

    expect(reshaped.map(frame)).toEqual(reshaped.map(jsonFrame));
  });
});
