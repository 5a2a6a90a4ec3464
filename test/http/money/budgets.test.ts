import OpenAI, { RateLimitError } from 'openai';
import { describe, expect, it } from 'vitest';
import type { Budget } from '../../../src/budget.js';
import { PriceBook } from '../../../src/money/PriceBook.js';
import { followRun } from '../../support/followRun.js';
import { sampleOf } from '../../support/metricSamples.js';
import { frames, toolCalls, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { useRoutedGateway } from '../../support/startRoutedGateway.js';
import { as, entryOf, keyOf, teamKeys } from '../../support/teamKeys.js';

// A key's budget holds each priced model call's worst case before it is made, and settles it to
// what the call cost: however many requests race, the key never spends more than its budget.

const start = useRoutedGateway();
const ROUTE = { models: [{ name: 'smart', targets: [{ upstream: 'main', model: 'main-model' }] }] };
/** A dollar a call, whatever its tokens: the worst case and the cost are the same. */
const DOLLAR_A_CALL = { prices: () => new PriceBook({ 'main-model': { input: 0, output: 0, perRequest: 1 } }) };
const messages = [{ role: 'user' as const, content: 'Write a haiku about budgets.' }];
const answer = (): UpstreamScript => ({
  steps: [frames.role(), frames.text('Coins fall'), frames.finish('stop'), frames.usage(20, 2), frames.done()],
});
const budgeted = (budget: Budget) => ({ ...DOLLAR_A_CALL, keys: () => teamKeys(entryOf('capped', { budget })) });
const DAILY_TEN: Budget = { usd: 10, period: 'day' };

interface Standing {
  readonly key: string;
  readonly spentUsd: number;
  readonly reservedUsd: number;
  readonly resetsAt: number;
}

const budgets = async (url: string, key: string) =>
  ((await (await fetch(`${url}/api/budgets`, { headers: as(key) })).json()) as { data: Standing[] }).data;

const chat = (url: string, body: Record<string, unknown> = {}) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: as('capped'),
    body: JSON.stringify({ model: 'smart', messages, ...body }),
  });

describe('budgets', () => {
  it('lets 50 concurrent requests against a budget worth 10 spend exactly the budget, the rest refused with 429', async () => {
    const { gateway, scripted, metrics } = await start({ main: Array.from({ length: 50 }, answer) }, ROUTE, {}, budgeted(DAILY_TEN));
    const answers = await Promise.all(Array.from({ length: 50 }, () => chat(gateway.url)));
    const refused = answers.filter(({ status }) => status === 429);

    expect(answers.filter(({ status }) => status === 200)).toHaveLength(10);
    expect(refused).toHaveLength(40);
    expect(scripted('main').requests).toHaveLength(10);
    const body = (await refused[0]!.json()) as { error: { type: string; code: string; message: string } };
    expect(body.error).toMatchObject({ type: 'insufficient_quota', code: 'budget_exceeded' });
    expect(body.error.message).toContain("key 'capped' has spent $");
    expect(body.error.message).toContain('of its $10.00 budget per day (UTC), which leaves no room for this model call');
    expect(refused[0]!.headers.get('x-should-retry')).toBe('false');
    const midnight = Math.ceil((Date.now() + 1) / 86_400_000) * 86_400;
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeCloseTo(midnight - Date.now() / 1000, -1);
    const [standing] = await budgets(gateway.url, 'capped');
    expect(standing).toMatchObject({ key: 'capped', spentUsd: 10, reservedUsd: 0, resetsAt: midnight });
    expect(sampleOf(await metrics.registry.metrics(), 'rxgate_key_budget_used_ratio', { key: 'capped' })).toBe(1);
  });

  it('is not retried by the openai client: one request, the 429 at once, whatever its Retry-After', async () => {
    const { gateway, scripted } = await start({ main: [answer()] }, ROUTE, {}, budgeted({ usd: 1, period: 'month' }));
    let requests = 0;
    const client = new OpenAI({
      baseURL: `${gateway.url}/v1`,
      apiKey: keyOf('capped'),
      maxRetries: 3,
      fetch: (url, init) => {
        requests++;
        return fetch(url, init);
      },
    });
    await client.chat.completions.create({ model: 'smart', messages });
    const refused = await client.chat.completions.create({ model: 'smart', messages }).catch((error: unknown) => error);

    // A stream is refused before its headers: the client sees the 429, not a stream that fails.
    const refusedStream = await client.chat.completions.create({ model: 'smart', messages, stream: true }).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(RateLimitError);
    expect((refused as RateLimitError).code).toBe('budget_exceeded');
    expect(refusedStream).toBeInstanceOf(RateLimitError);
    expect(requests).toBe(3);
    expect(scripted('main').requests).toHaveLength(1);
  });

  it('ends a run whose budget runs out between model calls with run.failed, having made no further call', async () => {
    const loop = toolCalls({ id: 'call_1', name: 'lookup', fragments: ['{}'] });
    const { gateway, scripted } = await start({ main: [loop, answer()] }, ROUTE, {}, budgeted({ usd: 1.5, period: 'week' }));
    const created = await fetch(`${gateway.url}/v1/runs`, {
      method: 'POST',
      headers: as('capped'),
      body: JSON.stringify({ model: 'smart', input: 'go' }),
    });
    const { run_id: runId } = (await created.json()) as { run_id: string };
    const failed = await (await followRun(gateway.url, runId, undefined, as('capped'))).until<{ error: { code: string } }>('run.failed');

    expect(created.status).toBe(202);
    expect(failed.error.code).toBe('budget_exceeded');
    expect(scripted('main').requests).toHaveLength(1);
    const [standing] = await budgets(gateway.url, 'capped');
    expect(standing).toMatchObject({ spentUsd: 1, reservedUsd: 0 });
    const again = await fetch(`${gateway.url}/v1/runs`, {
      method: 'POST',
      headers: as('capped'),
      body: JSON.stringify({ model: 'smart', input: 'go' }),
    });
    expect(again.status).toBe(202);
  });

  it('counts what an upstream produced past the output it was held for as spent and as overage, refusing the next call', async () => {
    const tokenPriced = { input: 0, output: 1_000_000, perRequest: 0 }; // a dollar an output token
    const { gateway, metrics } = await start(
      {
        main: [
          { steps: [frames.role(), frames.text('far too long'), frames.finish('stop'), frames.usage(10, 5), frames.done()] },
          answer(),
        ],
      },
      ROUTE,
      {},
      {
        prices: () => new PriceBook({ 'main-model': tokenPriced }),
        keys: () => teamKeys(entryOf('capped', { budget: { usd: 4, period: 'day' } })),
      },
    );

    expect((await chat(gateway.url, { max_tokens: 2 })).status).toBe(200);
    expect(sampleOf(await metrics.registry.metrics(), 'rxgate_budget_overage_usd_total', { key: 'capped' })).toBe(3);
    expect((await budgets(gateway.url, 'capped'))[0]).toMatchObject({ spentUsd: 5 });
    expect((await chat(gateway.url, { max_tokens: 1 })).status).toBe(429);
  });

  it("shows an admin every key's budget and a key only its own", async () => {
    const { gateway } = await start({ main: [] }, ROUTE, {}, budgeted(DAILY_TEN));

    expect((await budgets(gateway.url, 'ops')).map(({ key }) => key)).toEqual(['capped']);
    expect(await budgets(gateway.url, 'team-a')).toEqual([]);
    expect((await budgets(gateway.url, 'capped'))[0]).toMatchObject({ key: 'capped', spentUsd: 0 });
  });
});
