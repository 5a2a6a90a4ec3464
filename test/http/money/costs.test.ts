import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { PriceBook } from '../../../src/money/PriceBook.js';
import { events } from '../../support/anthropicWire.js';
import { collectStream } from '../../support/collectStream.js';
import { sampleOf } from '../../support/metricSamples.js';
import { frames, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { useRoutedGateway } from '../../support/startRoutedGateway.js';

// What each model call costs, from the usage its upstream reported and the price of the model
// that answered, on every answer that carries usage.

const start = useRoutedGateway();
const PRICE = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15, perRequest: 0.001 };
// 400 plain input * 3 + 1500 cached * 0.3 + 100 written * 3.75 + 500 output * 15 per million, plus 0.001.
const COST = 0.010525;
const USAGE = frames.usage(2000, 500, { prompt_tokens_details: { cached_tokens: 1500, cache_write_tokens: 100 } });
const answered = (): UpstreamScript => ({ steps: [frames.role(), frames.text('Hi'), frames.finish('stop'), USAGE, frames.done()] });
const calculated = (): UpstreamScript => ({
  steps: [
    frames.role(),
    frames.toolCallStart(0, 'call_calc', 'calculator'),
    frames.toolCallArguments(0, '{"expression":"6*7"}'),
    frames.finish('tool_calls'),
    USAGE,
    frames.done(),
  ],
});
const ROUTE = (target: Record<string, unknown> = {}) => ({
  models: [{ name: 'smart', targets: [{ upstream: 'main', model: 'main-model', ...target }] }],
});
const book = (models: ConstructorParameters<typeof PriceBook>[0]) => () => new PriceBook(models);
const messages = [{ role: 'user' as const, content: 'hi' }];
const chat = (url: string, body: Record<string, unknown>) =>
  fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('costs', () => {
  it('puts the cost in a chat answer, its x-rxgate-cost header and the last chunk of a stream with usage', async () => {
    const { gateway, metrics } = await start({ main: [answered(), answered()] }, ROUTE(), {}, { prices: book({ 'main-*': PRICE }) });
    const answer = await chat(gateway.url, { model: 'smart', messages });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const chunks = await collectStream(
      await client.chat.completions.create({ model: 'smart', messages, stream: true, stream_options: { include_usage: true } }),
    );

    expect(answer.headers.get('x-rxgate-cost')).toBe(String(COST));
    expect(((await answer.json()) as { usage: { cost: number } }).usage.cost).toBe(COST);
    expect((chunks.at(-1)?.usage as { cost?: number } | undefined)?.cost).toBe(COST);
    expect(sampleOf(await metrics.registry.metrics(), 'rxgate_cost_usd_total', { key: 'default', model: 'smart' })).toBeCloseTo(
      2 * COST,
      12,
    );
  });

  it('sums the calls of a tool loop into a response, as it completes and as it is stored', async () => {
    const { gateway } = await start({ main: [calculated(), answered()] }, ROUTE(), {}, { prices: book({ 'main-model': PRICE }) });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const response = await client.responses.create({ model: 'smart', input: 'What is 6*7?' });
    const stored = await client.responses.retrieve(response.id);

    expect((response.usage as { cost?: number }).cost).toBe(2 * COST);
    expect((stored.usage as { cost?: number }).cost).toBe(2 * COST);
  });

  it("prices at a target's own price over the file, and at the tier a long prompt reaches", async () => {
    const tiered = { ...PRICE, tiers: [{ aboveInputTokens: 1000, input: 6, output: 22.5 }] };
    const { gateway } = await start(
      { main: [answered()] },
      ROUTE({ price: tiered }),
      {},
      { prices: book({ 'main-model': { input: 100, output: 100 } }) },
    );
    const answer = (await (await chat(gateway.url, { model: 'smart', messages })).json()) as { usage: { cost: number } };

    // 400 * 6 + 1500 * 0.3 + 100 * 3.75 + 500 * 22.5 per million, plus 0.001.
    expect(answer.usage.cost).toBe(0.015475);
  });

  it("prices an Anthropic upstream's cache reads and writes from its Messages usage", async () => {
    const script: UpstreamScript = {
      steps: [
        events.start(400, 1500, 100),
        events.textStart(0),
        events.text(0, 'Hi'),
        events.stop(0),
        events.finish('end_turn', 500),
        events.end(),
      ],
    };
    const { gateway } = await start(
      { main: { kind: 'anthropic', scripts: [script] } },
      ROUTE(),
      {},
      { prices: book({ 'main-model': PRICE }) },
    );
    const answer = (await (await chat(gateway.url, { model: 'smart', messages })).json()) as {
      usage: { prompt_tokens: number; cost: number };
    };

    expect(answer.usage.prompt_tokens).toBe(2000);
    expect(answer.usage.cost).toBe(COST);
  });

  it('leaves the cost out of an answer whose model has no price, and counts the call as unpriced', async () => {
    const { gateway, metrics } = await start({ main: [answered()] }, ROUTE(), {}, { prices: book({ 'other-model': PRICE }) });
    const answer = await chat(gateway.url, { model: 'smart', messages });

    expect(answer.headers.has('x-rxgate-cost')).toBe(false);
    expect((await answer.json()) as { usage: Record<string, unknown> }).not.toHaveProperty('usage.cost');
    expect(sampleOf(await metrics.registry.metrics(), 'rxgate_unpriced_calls_total', { model: 'main-model' })).toBe(1);
  });

  it('prices from the prices as they are at each call: a reloaded file holds from the next', async () => {
    let prices = new PriceBook({ 'main-model': PRICE });
    const { gateway } = await start({ main: [answered(), answered()] }, ROUTE(), {}, { prices: () => prices });
    const first = (await (await chat(gateway.url, { model: 'smart', messages })).json()) as { usage: { cost: number } };
    prices = new PriceBook({ 'main-model': { ...PRICE, perRequest: 1 } });
    const second = (await (await chat(gateway.url, { model: 'smart', messages })).json()) as { usage: { cost: number } };

    expect(first.usage.cost).toBe(COST);
    expect(second.usage.cost).toBe(COST - 0.001 + 1);
  });
});
