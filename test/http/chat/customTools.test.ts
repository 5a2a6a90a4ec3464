import OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionCustomTool } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { answer, toolCalls } from '../../support/scriptedUpstream.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';

// Chat Completions custom tools (free-form input, optional grammar) over the LLM agent and a
// scripted upstream, with the official openai SDK: offered as a function of one string
// parameter, called back as a custom tool call with the model's input.

const gateways = useLlmGateway();
const clientFor = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 });

const PATCH: ChatCompletionCustomTool = {
  type: 'custom',
  custom: {
    name: 'apply_patch',
    description: 'Applies a patch.',
    format: { type: 'grammar', grammar: { syntax: 'lark', definition: 'start: "*** Begin Patch" /(.|\\n)+/' } },
  },
};
const WEATHER = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};
const patchCall = () => toolCalls({ id: 'call_p', name: 'apply_patch', fragments: ['{"inp', 'ut":"*** Begin Patch\\n+x"}'] });
const messages = [{ role: 'user' as const, content: 'Patch it' }];

describe('custom tools through Chat Completions', () => {
  it('offers a custom tool as a function of one string input, its grammar in the description, and answers its call as a custom tool call', async () => {
    const { upstream, gateway } = await gateways.start([patchCall()]);
    const completion = await clientFor(gateway.url).chat.completions.create({ model: 'rxgate-agent', messages, tools: [PATCH] });

    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    expect(completion.choices[0]!.message.tool_calls).toEqual([
      { id: 'call_p', type: 'custom', custom: { name: 'apply_patch', input: '*** Begin Patch\n+x' } },
    ]);
    const offered = (upstream.requests[0]!.body.tools as { function: Record<string, unknown> }[]).find(
      (tool) => tool.function.name === 'apply_patch',
    );
    expect(offered!.function.parameters).toMatchObject({ properties: { input: { type: 'string' } }, required: ['input'] });
    expect(offered!.function.description).toContain('Applies a patch.');
    expect(offered!.function.description).toContain('lark grammar');
  });

  it('streams a custom call as its first piece at once and its input whole in its last, a function call beside it piece by piece', async () => {
    const { gateway } = await gateways.start([
      toolCalls(
        { id: 'call_p', name: 'apply_patch', fragments: ['{"inp', 'ut":"*** Begin Patch\\n+x"}'] },
        { id: 'call_w', name: 'get_weather', fragments: ['{"city":', '"Oslo"}'] },
      ),
    ]);
    const stream = await clientFor(gateway.url).chat.completions.create({
      model: 'rxgate-agent',
      messages,
      tools: [PATCH, WEATHER],
      stream: true,
    });
    const pieces: unknown[] = [];
    let finish: string | null = null;
    for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) {
      pieces.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }

    expect(pieces).toEqual([
      { index: 0, id: 'call_p', type: 'custom', custom: { name: 'apply_patch', input: '' } },
      { index: 0, custom: { input: '*** Begin Patch\n+x' } },
      { index: 1, id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 1, function: { arguments: '{"city":' } },
      { index: 1, function: { arguments: '"Oslo"}' } },
    ]);
    expect(finish).toBe('tool_calls');
  });

  it('takes the custom call back with the history and its output as a tool message, and a custom tool_choice', async () => {
    const { upstream, gateway } = await gateways.start([answer('Patched.')]);
    const completion = await clientFor(gateway.url).chat.completions.create({
      model: 'rxgate-agent',
      tools: [PATCH],
      tool_choice: { type: 'custom', custom: { name: 'apply_patch' } },
      messages: [
        ...messages,
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_p', type: 'custom', custom: { name: 'apply_patch', input: '+x' } }] },
        { role: 'tool', tool_call_id: 'call_p', content: 'Done!' },
      ],
    });

    expect(completion.choices[0]!.message.content).toBe('Patched.');
    const sent = upstream.requests[0]!.body;
    expect(sent.messages).toContainEqual(
      expect.objectContaining({
        role: 'assistant',
        tool_calls: [{ id: 'call_p', type: 'function', function: { name: 'apply_patch', arguments: '{"input":"+x"}' } }],
      }),
    );
    expect(sent.tool_choice).toEqual({ type: 'function', function: { name: 'apply_patch' } });
  });
});
