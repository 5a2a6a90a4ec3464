import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { ChatOpenAI } from '@langchain/openai';
import { generateText, streamText } from 'ai';
import OpenAI, { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { answer, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { SMART, useRoutedGateway } from '../../support/startRoutedGateway.js';

// The real clients, with their own retries left on, against a route whose first target fails
// before content: one clean answer, and one request from the client, whatever they would retry.

const start = useRoutedGateway();

const down: UpstreamScript = {
  status: 503,
  headers: { 'content-type': 'application/json' },
  steps: [{ raw: '{"error":{"message":"down"}}' }],
};

async function failingOver() {
  return start({ main: [down], backup: [answer('from ', 'backup')] }, SMART);
}

describe('the real clients against a route that fails over before content', () => {
  it('openai (maxRetries 2): one clean answer, streaming and not, the route name as model', async () => {
    const { gateway, scripted } = await failingOver();
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 2 });
    const completion = await client.chat.completions.create({ model: 'smart', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]!.message.content).toBe('from backup');
    expect(completion.model).toBe('smart');
    let text = '';
    for await (const chunk of await client.chat.completions.create({
      model: 'smart',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    }))
      text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('from backup');
    expect(scripted('backup').requests).toHaveLength(2);
  });

  it('openai (maxRetries 2) does not retry on top when every attempt failed: x-should-retry: false', async () => {
    const { gateway, scripted } = await start({ main: [down], backup: [down] }, { ...SMART, budget: { maxAttempts: 2 } });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 2 });
    const failed = await client.chat.completions
      .create({ model: 'smart', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(APIError);
    expect((failed as APIError).status).toBe(503);
    // One gateway request: two upstream attempts. The SDK's two retries would have made six.
    expect(scripted('main').requests.length + scripted('backup').requests.length).toBe(2);
  });

  it('the AI SDK: generateText and streamText see one clean answer', async () => {
    const { gateway, scripted } = await failingOver();
    const model = createOpenAICompatible({ name: 'rxgate', baseURL: `${gateway.url}/v1` }).chatModel('smart');
    expect((await generateText({ model, prompt: 'hi' })).text).toBe('from backup');
    expect(await streamText({ model, prompt: 'hi' }).text).toBe('from backup');
    expect(scripted('backup').requests).toHaveLength(2);
  });

  it('LangChain ChatOpenAI: invoke sees one clean answer', async () => {
    const { gateway, scripted } = await failingOver();
    const chat = new ChatOpenAI({ model: 'smart', apiKey: 'unused', configuration: { baseURL: `${gateway.url}/v1` } });
    expect((await chat.invoke('hi')).content).toBe('from backup');
    expect(scripted('main').requests).toHaveLength(1);
    expect(scripted('backup').requests).toHaveLength(1);
  });
});
