import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_TOKENS, toMessagesRequest } from '../../../../src/upstream/anthropicMessages/toMessagesRequest.js';

const weather = {
  type: 'function',
  function: { name: 'weather', description: 'The weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

describe('toMessagesRequest', () => {
  it('puts system and developer messages in system, and a whole tool round trip in blocks of alternating turns', () => {
    const request = toMessagesRequest({
      model: 'claude-x',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: [{ type: 'text', text: 'Use tools.' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather in Paris and Rome?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } },
            { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Looking.',
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
            { id: 'toolu_2', type: 'function', function: { name: 'weather', arguments: 'not json' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'sunny' },
        { role: 'tool', tool_call_id: 'toolu_2', content: [{ type: 'text', text: 'rain' }] },
        { role: 'user', content: 'Thanks' },
        { role: 'assistant', content: null },
      ],
    });

    expect(request).toEqual({
      model: 'claude-x',
      max_tokens: DEFAULT_MAX_TOKENS,
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Use tools.' },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather in Paris and Rome?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Looking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'weather', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'rain' }] },
            { type: 'text', text: 'Thanks' },
          ],
        },
      ],
      stream: true,
    });
  });

  it('sends tools with input_schema and each tool_choice as Anthropic names it', () => {
    const body = { model: 'm', messages: [], tools: [weather, { type: 'function', function: { name: 'now' } }] };
    const tools = [
      { name: 'weather', description: 'The weather', input_schema: weather.function.parameters },
      { name: 'now', input_schema: { type: 'object', properties: {} } },
    ];
    expect(toMessagesRequest(body)).toMatchObject({ tools });
    expect(toMessagesRequest(body).tool_choice).toBeUndefined();
    expect(toMessagesRequest({ ...body, tool_choice: 'auto' }).tool_choice).toEqual({ type: 'auto' });
    expect(toMessagesRequest({ ...body, tool_choice: 'required' }).tool_choice).toEqual({ type: 'any' });
    expect(toMessagesRequest({ ...body, tool_choice: 'none' }).tool_choice).toEqual({ type: 'none' });
    expect(toMessagesRequest({ ...body, tool_choice: { type: 'function', function: { name: 'now' } } }).tool_choice).toEqual({
      type: 'tool',
      name: 'now',
    });
    expect(toMessagesRequest({ ...body, parallel_tool_calls: false }).tool_choice).toEqual({
      type: 'auto',
      disable_parallel_tool_use: true,
    });
    expect(toMessagesRequest({ model: 'm', messages: [], tool_choice: 'auto' })).not.toHaveProperty('tool_choice');
  });

  it("takes max_tokens from the body, else max_completion_tokens, else the target's maxOutputTokens, else the default", () => {
    expect(toMessagesRequest({ model: 'm', messages: [], max_tokens: 100, max_completion_tokens: 200 }, 50).max_tokens).toBe(100);
    expect(toMessagesRequest({ model: 'm', messages: [], max_completion_tokens: 200 }, 50).max_tokens).toBe(200);
    expect(toMessagesRequest({ model: 'm', messages: [] }, 50).max_tokens).toBe(50);
    expect(toMessagesRequest({ model: 'm', messages: [] }).max_tokens).toBe(4096);
  });

  it('maps stop, temperature (at most 1), top_p and user, and drops what Messages has no field for', () => {
    const request = toMessagesRequest({
      model: 'm',
      messages: [],
      stop: 'END',
      temperature: 1.5,
      top_p: 0.9,
      user: 'u-1',
      seed: 7,
      presence_penalty: 1,
      response_format: { type: 'json_object' },
      prompt_cache_key: 'k',
    });
    expect(request).toEqual({
      model: 'm',
      max_tokens: 4096,
      messages: [],
      stop_sequences: ['END'],
      temperature: 1,
      top_p: 0.9,
      metadata: { user_id: 'u-1' },
      stream: true,
    });
    expect(toMessagesRequest({ model: 'm', messages: [], stop: ['a', 'b'] }).stop_sequences).toEqual(['a', 'b']);
  });

  it('turns a reasoning effort into thinking below max_tokens, without temperature, and none for none or no room', () => {
    expect(toMessagesRequest({ model: 'm', messages: [], reasoning_effort: 'medium', temperature: 0.2, max_tokens: 32_000 })).toMatchObject(
      {
        thinking: { type: 'enabled', budget_tokens: 8192 },
      },
    );
    expect(toMessagesRequest({ model: 'm', messages: [], reasoning_effort: 'medium', temperature: 0.2 })).not.toHaveProperty('temperature');
    expect(toMessagesRequest({ model: 'm', messages: [], reasoning_effort: 'high', max_tokens: 2000 }).thinking).toEqual({
      type: 'enabled',
      budget_tokens: 1999,
    });
    expect(toMessagesRequest({ model: 'm', messages: [], reasoning_effort: 'high', max_tokens: 1024 })).not.toHaveProperty('thinking');
    expect(toMessagesRequest({ model: 'm', messages: [], reasoning_effort: 'none' })).not.toHaveProperty('thinking');
  });

  it('sends no thinking with tool results: the signed thinking block their tool_use turn began with is not in the chat history', () => {
    const messages = [
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'weather', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 't1', content: 'sunny' },
    ];
    expect(toMessagesRequest({ model: 'm', messages, reasoning_effort: 'high', max_tokens: 32_000 })).not.toHaveProperty('thinking');
  });
});
