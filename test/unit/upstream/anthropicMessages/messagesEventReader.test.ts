import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../../../src/errors/UpstreamError.js';
import { MessagesEventReader } from '../../../../src/upstream/anthropicMessages/MessagesEventReader.js';

/** Reads these events, as Anthropic sends them, with one reader; what each one gave, `undefined` for nothing. */
function readAll(events: readonly Record<string, unknown>[], reader = new MessagesEventReader(200, 'sk-ant-secret')) {
  return { reader, read: events.map((event) => reader.read({ event: String(event.type), data: JSON.stringify(event), id: undefined })) };
}

const start = {
  type: 'message_start',
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-x',
    content: [],
    stop_reason: null,
    usage: { input_tokens: 10, cache_read_input_tokens: 90, cache_creation_input_tokens: 5, output_tokens: 1 },
  },
};

describe('MessagesEventReader', () => {
  it('reads thinking, text and two tool blocks as reasoning, content and tool calls indexed 0 and 1, then the finish and usage', () => {
    const { reader, read } = readAll([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'ping' },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_a', name: 'weather', input: {} } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"city":' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } },
      { type: 'content_block_stop', index: 2 },
      { type: 'content_block_start', index: 3, content_block: { type: 'tool_use', id: 'toolu_b', name: 'now', input: {} } },
      { type: 'content_block_delta', index: 3, delta: { type: 'input_json_delta', partial_json: '{}' } },
      { type: 'content_block_stop', index: 3 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 42 } },
      { type: 'message_stop' },
    ]);

    expect(read).toEqual([
      { id: 'msg_1', model: 'claude-x' },
      undefined,
      { choices: [{ delta: { reasoning_content: 'hmm' } }] },
      undefined,
      undefined,
      undefined,
      undefined,
      { choices: [{ delta: { content: 'Hi' } }] },
      undefined,
      {
        choices: [{ delta: { tool_calls: [{ index: 0, id: 'toolu_a', type: 'function', function: { name: 'weather', arguments: '' } }] } }],
      },
      undefined,
      { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] } }] },
      { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] } }] },
      undefined,
      { choices: [{ delta: { tool_calls: [{ index: 1, id: 'toolu_b', type: 'function', function: { name: 'now', arguments: '' } }] } }] },
      { choices: [{ delta: { tool_calls: [{ index: 1, function: { arguments: '{}' } }] } }] },
      undefined,
      {
        choices: [{ finish_reason: 'tool_calls' }],
        usage: {
          prompt_tokens: 105,
          completion_tokens: 42,
          total_tokens: 147,
          prompt_tokens_details: { cached_tokens: 90, cache_write_tokens: 5 },
        },
      },
      undefined,
    ]);
    expect(reader).toMatchObject({ done: true, finished: true });
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
    ['pause_turn', 'stop'],
  ])('reads stop_reason %s as finish_reason %s', (stopReason, finishReason) => {
    const { read } = readAll([start, { type: 'message_delta', delta: { stop_reason: stopReason }, usage: { output_tokens: 3 } }]);
    expect(read[1]).toMatchObject({ choices: [{ finish_reason: finishReason }] });
  });

  it('reads an error event as an upstream_error naming its type, the key redacted', () => {
    const { read } = readAll([start, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded for sk-ant-secret' } }]);
    const error = read[1] as UpstreamError;
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'upstream_error', upstreamCode: 'overloaded_error', status: 200 });
    expect(error.message).toContain('overloaded_error: Overloaded for');
    expect(error.message).not.toContain('sk-ant-secret');
  });

  it('reads an event that is not JSON as malformed_frame, and ignores events it does not know', () => {
    const reader = new MessagesEventReader(200, undefined);
    expect(reader.read({ event: 'content_block_delta', data: '{"type":', id: undefined })).toMatchObject({ kind: 'malformed_frame' });
    expect(reader.read({ event: 'future_event', data: '{"type":"future_event"}', id: undefined })).toBeUndefined();
    expect(reader).toMatchObject({ done: false, finished: false });
  });
});
