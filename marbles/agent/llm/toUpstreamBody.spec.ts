import { describe, expect, it } from 'vitest';
import type { ClientTool, ModelOptions } from '../../../src/agent/agent.js';
import { toUpstreamBody } from '../../../src/agent/llm/toUpstreamBody.js';

const messages = [{ role: 'user' as const, content: 'hi' }];
const tool: ClientTool = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } };

describe('toUpstreamBody', () => {
  it('forwards the options verbatim and never lets them override the fields the agent owns', () => {
    const options = { temperature: 0, stop: 'END', model: 'other', messages: [], stream: false, stream_options: null, tools: [], tool_choice: 'none', parallel_tool_calls: true };
    expect(toUpstreamBody({ model: 'm', messages, tools: [tool], toolChoice: 'required', options: options as ModelOptions })).toEqual({
      temperature: 0,
      stop: 'END',
      model: 'm',
      messages,
      stream: true,
      stream_options: { include_usage: true },
      tools: [tool],
      tool_choice: 'required',
    });
  });

  it('sends tool_choice and parallel_tool_calls only with tools, which upstreams require', () => {
    expect(toUpstreamBody({ model: 'm', messages, tools: [], toolChoice: 'auto', parallelToolCalls: false })).toEqual({
      model: 'm',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(toUpstreamBody({ model: 'm', messages, tools: [tool], parallelToolCalls: false })).toMatchObject({ tools: [tool], parallel_tool_calls: false });
  });
});
