import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { frames, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';

// The token details an upstream reports (cached input, reasoning output), as OpenAI reports them,
// through both APIs and across the model calls of a tool loop: never a made-up 0.

const gateways = useLlmGateway();
const clientFor = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 });

const detailedUsage = (cached: number, reasoning: number) =>
  frames.usage(20, 10, { prompt_tokens_details: { cached_tokens: cached }, completion_tokens_details: { reasoning_tokens: reasoning } });
const answered = (): UpstreamScript => ({
  steps: [frames.role(), frames.reasoning('Hm.'), frames.text('Hi'), frames.finish('stop'), detailedUsage(16, 7), frames.done()],
});
const calculated = (): UpstreamScript => ({
  steps: [
    frames.role(),
    frames.toolCallStart(0, 'call_calc', 'calculator'),
    frames.toolCallArguments(0, '{"expression":"6*7"}'),
    frames.finish('tool_calls'),
    detailedUsage(0, 3),
    frames.done(),
  ],
});
const messages = [{ role: 'user' as const, content: 'hi' }];

describe('usage details', () => {
  it('reports the cached and reasoning tokens of a chat completion, streaming or not', async () => {
    const { gateway } = await gateways.start([answered(), answered()]);
    const client = clientFor(gateway.url);
    const completion = await client.chat.completions.create({ model: 'rxgate-agent', messages });
    const chunks = [];
    for await (const chunk of await client.chat.completions.create({
      model: 'rxgate-agent',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    })) {
      chunks.push(chunk);
    }

    const expected = {
      prompt_tokens: 20,
      completion_tokens: 10,
      total_tokens: 30,
      prompt_tokens_details: { cached_tokens: 16 },
      completion_tokens_details: { reasoning_tokens: 7 },
    };
    expect(completion.usage).toEqual(expected);
    expect(chunks.at(-1)?.usage).toEqual(expected);
  });

  it('reports the cached and reasoning tokens of a response, summed over its model calls', async () => {
    const { gateway } = await gateways.start([calculated(), answered()]);
    const response = await clientFor(gateway.url).responses.create({ model: 'rxgate-agent', input: 'What is 6*7?' });

    expect(response.usage).toEqual({
      input_tokens: 40,
      input_tokens_details: { cached_tokens: 16 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 10 },
      total_tokens: 60,
    });
  });
});
