import { describe, expect, it } from 'vitest';
import { parseMessagesRequest } from '../../../src/messages/messagesRequest.js';

const base = { model: 'claude-sonnet-4-5', max_tokens: 100 };

describe('parseMessagesRequest', () => {
  it('puts the system prompt first and a system message where it stands, and joins text blocks', () => {
    const request = parseMessagesRequest({
      ...base,
      system: [
        { type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'Be brief.' },
      ],
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'system', content: [{ type: 'text', text: '<env>cwd: /tmp</env>' }] },
      ],
    });

    expect(request.messages).toEqual([
      { role: 'system', content: 'You are Claude Code.\n\nBe brief.' },
      { role: 'user', content: 'hi' },
      { role: 'system', content: '<env>cwd: /tmp</env>' },
    ]);
  });

  it('reads images (base64 and url) as image_url parts beside the text', () => {
    const request = parseMessagesRequest({
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
          ],
        },
      ],
    });

    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
        ],
      },
    ]);
  });

  it('never sends thinking back as text, and puts tool results first, with their images after them', () => {
    const request = parseMessagesRequest({
      ...base,
      messages: [
        { role: 'user', content: 'look' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'the user wants a screenshot', signature: 'sig' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'text', text: 'Taking one.' },
            { type: 'tool_use', id: 'toolu_1', name: 'screenshot', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'here' },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              content: [
                { type: 'text', text: 'captured' },
                { type: 'image', source: { type: 'url', url: 'https://example.com/s.png' } },
              ],
            },
          ],
        },
      ],
    });

    expect(request.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: 'Taking one.',
        tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'screenshot', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'captured' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'here' },
          { type: 'image_url', image_url: { url: 'https://example.com/s.png' } },
        ],
      },
    ]);
  });

  it('maps tools, tool_choice, stop_sequences, metadata.user_id and output_config under their chat names, and lists the fields it drops', () => {
    const request = parseMessagesRequest({
      ...base,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ name: 'Bash', input_schema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }, defer_loading: true }],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      stop_sequences: ['END'],
      temperature: 0.5,
      top_k: 40,
      metadata: { user_id: 'user-1' },
      thinking: { type: 'adaptive', display: 'omitted' },
      output_config: { effort: 'max', format: { type: 'json_schema', schema: { type: 'object' } } },
      context_management: { edits: [] },
      container: 'c1',
    });

    expect(request.clientTools).toEqual([{ type: 'function', function: { name: 'Bash', parameters: { type: 'object' } } }]);
    expect(request.toolChoice).toBe('required');
    expect(request.parallelToolCalls).toBe(false);
    expect(request.options).toEqual({
      max_tokens: 100,
      temperature: 0.5,
      stop: ['END'],
      user: 'user-1',
      reasoning_effort: 'xhigh',
      response_format: { type: 'json_schema', json_schema: { name: 'output', schema: { type: 'object' }, strict: true } },
    });
    expect(request.dropped).toEqual(['context_management', 'container']);
  });

  it.each([
    ['tool', { type: 'tool', name: 'Bash' }, { type: 'function', function: { name: 'Bash' } }],
    ['auto', { type: 'auto' }, 'auto'],
    ['none', { type: 'none' }, 'none'],
  ])('maps tool_choice %s', (_name, choice, expected) => {
    const request = parseMessagesRequest({
      ...base,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ name: 'Bash', input_schema: { type: 'object' } }],
      tool_choice: choice,
    });

    expect(request.toolChoice).toEqual(expected);
    expect(request.parallelToolCalls).toBeUndefined();
  });
});
