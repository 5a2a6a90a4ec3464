import { AIMessage, HumanMessage, type AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answer, toolCalls } from '../../support/scriptedUpstream.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';

// LangChain's ChatOpenAI against rxgate, over the LLM agent and a scripted upstream: tool calls
// with bindTools, structured output both ways, and a tool loop on the Responses API.

const gateways = useLlmGateway();

const chatModel = (url: string, fields: Partial<ConstructorParameters<typeof ChatOpenAI>[0]> = {}) =>
  new ChatOpenAI({ model: 'rxgate-agent', apiKey: 'unused', maxRetries: 0, configuration: { baseURL: `${url}/v1` }, ...fields });

const getWeather = tool(async ({ city }) => `21 °C and sunny in ${city}`, {
  name: 'get_weather',
  description: 'The weather in a city',
  schema: z.object({ city: z.string() }),
});
const weatherCall = () => toolCalls({ id: 'call_w', name: 'get_weather', fragments: ['{"city":', '"Oslo"}'] });
const City = z.object({ city: z.string(), country: z.string() });

describe('LangChain ChatOpenAI on Chat Completions', () => {
  it('returns tool_calls from a model with bindTools', async () => {
    const { upstream, gateway } = await gateways.start([weatherCall()]);
    const message = await chatModel(gateway.url).bindTools([getWeather]).invoke('Weather in Oslo?');

    expect(message.tool_calls).toEqual([{ id: 'call_w', name: 'get_weather', args: { city: 'Oslo' }, type: 'tool_call' }]);
    expect(message.response_metadata.finish_reason).toBe('tool_calls');
    expect((upstream.requests[0]!.body.tools as { function: { name: string } }[]).map((entry) => entry.function.name)).toContain(
      'get_weather',
    );
  });

  it('returns tool_calls when streaming, too', async () => {
    const { gateway } = await gateways.start([weatherCall()]);
    // .stream(), not invoke() with streaming on: that one then fetches a tokenizer from the internet to estimate usage.
    let message: AIMessageChunk | undefined;
    for await (const chunk of await chatModel(gateway.url).bindTools([getWeather]).stream('Weather in Oslo?')) {
      message = message ? concat(message, chunk) : chunk;
    }

    expect(message!.tool_calls).toEqual([{ id: 'call_w', name: 'get_weather', args: { city: 'Oslo' }, type: 'tool_call' }]);
  });

  it('gives structured output with method functionCalling: a forced call of the schema function', async () => {
    const call = toolCalls({ id: 'call_c', name: 'extract_city', fragments: ['{"city":"Oslo",', '"country":"Norway"}'] });
    const { upstream, gateway } = await gateways.start([call]);
    const structured = chatModel(gateway.url).withStructuredOutput(City, { name: 'extract_city', method: 'functionCalling' });

    expect(await structured.invoke('Oslo is in Norway.')).toEqual({ city: 'Oslo', country: 'Norway' });
    expect(upstream.requests[0]!.body.tool_choice).toEqual({ type: 'function', function: { name: 'extract_city' } });
  });

  it('gives structured output with method jsonSchema: response_format json_schema reaches the upstream', async () => {
    const { upstream, gateway } = await gateways.start([answer('{"city":"Oslo",', '"country":"Norway"}')]);
    const structured = chatModel(gateway.url).withStructuredOutput(City, { name: 'city', method: 'jsonSchema' });

    expect(await structured.invoke('Oslo is in Norway.')).toEqual({ city: 'Oslo', country: 'Norway' });
    expect(upstream.requests[0]!.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'city', schema: { type: 'object', required: ['city', 'country'] } },
    });
  });
});

describe('LangChain ChatOpenAI on the Responses API', () => {
  it('runs a tool loop: a function call, the tool run by the caller, and the answer with its result', async () => {
    const { upstream, gateway } = await gateways.start([weatherCall(), answer('It is sunny in Oslo.')]);
    const model = chatModel(gateway.url, { useResponsesApi: true }).bindTools([getWeather]);
    const messages: BaseMessage[] = [new HumanMessage('Weather in Oslo?')];
    let reply = await model.invoke(messages);
    for (let round = 0; reply.tool_calls?.length && round < 3; round++) {
      messages.push(reply);
      for (const call of reply.tool_calls) messages.push(await getWeather.invoke(call));
      reply = await model.invoke(messages);
    }

    expect(reply).toBeInstanceOf(AIMessage);
    expect(reply.text).toBe('It is sunny in Oslo.');
    expect(upstream.requests).toHaveLength(2);
    expect(upstream.requests[1]!.body.messages).toEqual([
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_w', content: '21 °C and sunny in Oslo' },
    ]);
  });

  it('shows a tool the agent ran as a tool output, not as a tool call to run, and takes it back in the history', async () => {
    const serverCall = toolCalls({ id: 'call_calc', name: 'calculator', fragments: ['{"expression":"6*7"}'] });
    const { upstream, gateway } = await gateways.start([serverCall, answer('6*7 is 42.'), answer('84.')]);
    const model = chatModel(gateway.url, { useResponsesApi: true }).bindTools([getWeather]);
    const question = new HumanMessage('What is 6*7?');
    const reply = await model.invoke([question]);

    expect(reply.tool_calls).toEqual([]);
    expect(reply.text).toBe('6*7 is 42.');
    expect(reply.additional_kwargs.tool_outputs).toEqual([
      expect.objectContaining({ type: 'mcp_call', server_label: 'rxgate', name: 'calculator', output: '42' }),
    ]);

    // LangChain sends the earlier output items back as they were, the mcp_call among them.
    const next = await model.invoke([question, reply, new HumanMessage('And twice that?')]);
    expect(next.text).toBe('84.');
    expect(upstream.requests[2]!.body.messages).toEqual([
      { role: 'user', content: 'What is 6*7?' },
      { role: 'assistant', content: '6*7 is 42.' },
      { role: 'user', content: 'And twice that?' },
    ]);
  });
});
