import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { answer } from '../../support/scriptedUpstream.js';
import { useRoutedGateway } from '../../support/startRoutedGateway.js';

const start = useRoutedGateway();

/** Claude Code's main model, routed: a small local model first, which gives at most 4,096 tokens, then a larger one. */
const CLAUDE_ROUTE = {
  models: [
    {
      name: 'claude-sonnet-4-5',
      targets: [
        { upstream: 'main', model: 'local-model', maxOutputTokens: 4096 },
        { upstream: 'backup', model: 'big-model' },
      ],
    },
  ],
};

describe('the Messages API over routes', () => {
  it("lowers max_tokens to each target's maxOutputTokens, and fails over before the first content", async () => {
    const routed = await start({ main: [{ status: 500, steps: [] }], backup: [answer('from backup')] }, CLAUDE_ROUTE);
    const client = new Anthropic({ baseURL: routed.gateway.url, apiKey: 'unused', maxRetries: 0 });
    const message = await client.messages
      .stream({ model: 'claude-sonnet-4-5', max_tokens: 32_000, messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage();

    expect(message.content).toEqual([{ type: 'text', text: 'from backup' }]);
    expect(message.model).toBe('claude-sonnet-4-5');
    const main = routed.scripted('main').requests;
    expect(main.length).toBeGreaterThan(0);
    expect(main.map((request) => [request.body.model, request.body.max_tokens])).toEqual(main.map(() => ['local-model', 4096]));
    expect((await routed.scripted('backup').request(0)).body).toMatchObject({ model: 'big-model', max_tokens: 32_000 });
  });

  it('refuses a routes file whose maxOutputTokens is not a positive integer', async () => {
    const file = { models: [{ name: 'm', targets: [{ upstream: 'main', model: 'x', maxOutputTokens: 0 }] }] };

    await expect(start({ main: [answer('unused')] }, file)).rejects.toThrow(/maxOutputTokens/);
  });
});
