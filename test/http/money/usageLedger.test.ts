import OpenAI from 'openai';
import { describe, expect, it, vi } from 'vitest';
import { costOf } from '../../../src/money/costOf.js';
import { PriceBook } from '../../../src/money/PriceBook.js';
import { roundUsd } from '../../../src/money/usd.js';
import { followRun } from '../../support/followRun.js';
import { sampleOf } from '../../support/metricSamples.js';
import { post } from '../../support/runsClient.js';
import { frames, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { useRoutedGateway } from '../../support/startRoutedGateway.js';
import { as, teamKeys } from '../../support/teamKeys.js';

// Every model call that spent something is a row of the usage ledger, with what it cost; a call
// whose upstream reported no usage is counted by rxgate's tokenizer and marked estimated.

const start = useRoutedGateway();
const PRICE = { input: 3, output: 15 };
const ROUTE = { models: [{ name: 'smart', targets: [{ upstream: 'main', model: 'main-model' }] }] };
const priced = { prices: () => new PriceBook({ 'main-model': PRICE }) };
const messages = [{ role: 'user' as const, content: 'Tell me a story about a lighthouse.' }];
const withoutUsage = (): UpstreamScript => ({
  steps: [frames.role(), frames.text('Once upon a time, a keeper.'), frames.finish('stop'), frames.done()],
});
const withUsage = (): UpstreamScript => ({
  steps: [frames.role(), frames.text('Hi'), frames.finish('stop'), frames.usage(1000, 100), frames.done()],
});
/** 1000 input at 3 and 100 output at 15 per million. */
const REPORTED_COST = 0.0045;

interface UsageRows {
  readonly data: readonly Record<string, unknown>[];
}

const usage = async (url: string, query = '', headers: Record<string, string> = {}) => {
  const answer = await fetch(`${url}/api/usage${query}`, { headers });
  return { status: answer.status, body: (await answer.json()) as UsageRows & { error?: { message: string; param: string } } };
};

describe('the usage ledger', () => {
  it('estimates a priced call whose upstream sent no usage, on the answer and in the ledger', async () => {
    const { gateway } = await start({ main: [withoutUsage()] }, ROUTE, {}, priced);
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const answer = await client.chat.completions.create({ model: 'smart', messages });
    const shown = answer.usage as unknown as { prompt_tokens: number; completion_tokens: number; cost: number; cost_details: unknown };

    expect(shown.prompt_tokens).toBeGreaterThan(5);
    expect(shown.completion_tokens).toBeGreaterThan(5);
    const cost = costOf(PRICE, { input: shown.prompt_tokens, cachedInput: 0, cacheWrite: 0, output: shown.completion_tokens });
    expect(shown.cost).toBe(cost);
    expect(shown.cost_details).toEqual({ estimated: true });
    const { body } = await usage(gateway.url);
    expect(body.data).toEqual([
      expect.objectContaining({
        key: 'default',
        model: 'smart',
        calls: 1,
        inputTokens: shown.prompt_tokens,
        outputTokens: shown.completion_tokens,
        costUsd: cost,
        estimatedCalls: 1,
      }),
    ]);
  });

  it('bills a stream the client left what the upstream had sent, its request aborted', async () => {
    const { gateway, metrics, scripted } = await start(
      { main: [{ steps: [frames.role(), frames.text('Once upon a time'), { stall: true }] }] },
      ROUTE,
      {},
      priced,
    );
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const controller = new AbortController();
    const stream = await client.chat.completions.create({ model: 'smart', messages, stream: true }, { signal: controller.signal });
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) break;
    }
    controller.abort();
    await (
      await scripted('main').request(0)
    ).closed;

    const row = await vi.waitFor(async () => {
      const [only] = (await usage(gateway.url)).body.data;
      expect(only).toBeDefined();
      return only!;
    });
    expect(row).toMatchObject({ calls: 1, estimatedCalls: 1 });
    expect(row.outputTokens).toBe(4);
    expect(row.costUsd).toBeGreaterThan(0);
    expect(sampleOf(await metrics.registry.metrics(), 'rxgate_cost_usd_total', { key: 'default', model: 'smart' })).toBe(row.costUsd);
  });

  it("shows a key its own calls and an admin everyone's, by hour or day and by the groups asked for", async () => {
    const { gateway } = await start({ main: [withUsage(), withUsage(), withUsage()] }, ROUTE, {}, { ...priced, keys: () => teamKeys() });
    const chat = (key: string) =>
      fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: as(key), body: JSON.stringify({ model: 'smart', messages }) });
    for (const key of ['team-a', 'team-a', 'team-b']) expect((await chat(key)).status).toBe(200);
    const hourStart = Math.floor(Date.now() / 3_600_000) * 3600;
    const totals = (calls: number) => ({
      calls,
      inputTokens: 1000 * calls,
      cachedInputTokens: 0,
      outputTokens: 100 * calls,
      costUsd: roundUsd(REPORTED_COST * calls),
      estimatedCalls: 0,
    });

    expect((await usage(gateway.url, '', as('team-a'))).body).toEqual({
      object: 'list',
      data: [{ start: hourStart, end: hourStart + 3600, key: 'team-a', model: 'smart', ...totals(2) }],
    });
    expect((await usage(gateway.url, '', as('ops'))).body.data.map((row) => [row.key, row.calls])).toEqual([
      ['team-a', 2],
      ['team-b', 1],
    ]);
    const dayStart = Math.floor(Date.now() / 86_400_000) * 86_400;
    expect((await usage(gateway.url, '?bucket=day&groupBy=model', as('ops'))).body.data).toEqual([
      { start: dayStart, end: dayStart + 86_400, model: 'smart', ...totals(3) },
    ]);
    const before = new Date(Date.now() - 2 * 86_400_000).toISOString();
    expect((await usage(gateway.url, `?from=${before}&to=${Math.floor(Date.now() / 1000) - 86_400}`, as('ops'))).body.data).toEqual([]);
  });

  it("puts a run's cost in its usage, as it completes and as it is read", async () => {
    const { gateway } = await start({ main: [withUsage()] }, ROUTE, {}, priced);
    const created = await post(`${gateway.url}/v1/runs`, { model: 'smart', input: 'hi' }, { 'content-type': 'application/json' });
    const { run_id: runId } = (await created.json()) as { run_id: string };
    const completed = await (await followRun(gateway.url, runId)).until<{ usage: { cost: number } }>('run.completed');
    const run = (await (await fetch(`${gateway.url}/v1/runs/${runId}`)).json()) as { usage: { cost: number } };

    expect(completed.usage.cost).toBe(REPORTED_COST);
    expect(run.usage.cost).toBe(REPORTED_COST);
  });

  it('refuses a query it cannot answer with a 400 naming the parameter', async () => {
    const { gateway } = await start({ main: [] }, ROUTE);
    const answers = await Promise.all(
      ['?groupBy=key,team', '?bucket=week', '?from=yesterday', '?from=2026-12-02&to=2026-12-01'].map((query) => usage(gateway.url, query)),
    );

    expect(answers.map(({ status, body }) => [status, body.error?.param])).toEqual([
      [400, 'groupBy'],
      [400, 'bucket'],
      [400, 'from'],
      [400, 'from'],
    ]);
    expect(answers[0]!.body.error?.message).toContain("'team' is not one of key, model, upstreamModel");
  });
});
