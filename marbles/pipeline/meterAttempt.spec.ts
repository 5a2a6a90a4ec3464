import { beforeAll, describe, expect, it } from 'vitest';
import { costOf } from '../../src/money/costOf.js';
import type { Price } from '../../src/money/price.js';
import { UpstreamError } from '../../src/errors/UpstreamError.js';
import { meterAttempt, type AttemptSpend } from '../../src/upstream/meterAttempt.js';
import type { UpstreamChunk } from '../../src/upstream/upstreamChunk.js';
import { countChatInput } from '../../src/wire/countChatInput.js';
import { tokenCounter, type Counter } from '../../src/wire/tokenCount.js';
import { marbles } from '../support/marbles.js';

const PRICE: Price = { input: 3, output: 15, perRequest: 0.001 };
const BODY = { model: 'm', messages: [{ role: 'user', content: 'What is the capital of France?' }] };
const text = (content: string): UpstreamChunk => ({ choices: [{ delta: { content }, finish_reason: null }] });
const VALUES = {
  a: text('The capital '),
  b: text('is Paris.'),
  r: { choices: [{ delta: {}, finish_reason: null }] } satisfies UpstreamChunk,
  u: { choices: [], usage: { prompt_tokens: 14, completion_tokens: 5, total_tokens: 19 } } satisfies UpstreamChunk,
  z: { choices: [], usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } } satisfies UpstreamChunk,
};
const failed = new UpstreamError('dropped', 'closed the stream');

let count: Counter;
beforeAll(async () => {
  // Loaded once, as a server's first estimate loads it: from then on an estimate is made at once.
  count = await tokenCounter();
});

/** What the tokenizer makes of the request and of `output`, at PRICE. */
function estimated(output: string): AttemptSpend {
  const tokens = { input: countChatInput(count, BODY), cachedInput: 0, cacheWrite: 0, output: count(output) };
  return { tokens, cost: { usd: costOf(PRICE, tokens), priced: true, estimated: true } };
}

function metered(price: Price | null = PRICE) {
  const spent: (AttemptSpend | undefined)[] = [];
  return { spent, meter: meterAttempt(price ?? undefined, BODY, (spend) => spent.push(spend)) };
}

describe('meterAttempt', () => {
  it('prices the usage the upstream reported, and tells the spend once as the attempt completes', marbles((m) => {
    const { spent, meter } = metered();
    const tokens = { input: 14, cachedInput: 0, cacheWrite: 0, output: 5 };
    const cost = { usd: costOf(PRICE, tokens), priced: true, estimated: false };
    m.expect(m.cold('-a-b-u|', VALUES).pipe(meter)).toBeObservable('-a-b-c|', { ...VALUES, c: { ...VALUES.u, cost } });
    m.flush();
    expect(spent).toStrictEqual([{ tokens, cost }]);
  }));

  it('never replaces an explicit zero: a call the upstream says used nothing pays only its per-call price', marbles((m) => {
    const { spent, meter } = metered();
    m.expect(m.cold('-z|', VALUES).pipe(meter)).toBeObservable('-c|', { c: { ...VALUES.z, cost: { usd: 0.001, priced: true, estimated: false } } });
    m.flush();
    expect(spent.map((spend) => spend?.cost.estimated)).toStrictEqual([false]);
  }));

  it('counts a priced call whose upstream sent no usage, and passes the estimate on as its usage chunk', marbles((m) => {
    const { spent, meter } = metered();
    const estimate = estimated('The capital is Paris.');
    const { input, output } = estimate.tokens;
    const e: UpstreamChunk = { choices: [], usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output }, cost: estimate.cost };
    m.expect(m.cold('-a-b|', VALUES).pipe(meter)).toBeObservable('-a-b(e|)', { ...VALUES, e });
    m.flush();
    expect(spent).toStrictEqual([estimate]);
  }));

  it('tells a stream cancelled at a frame what it had received by then, counted, once', marbles((m) => {
    const { spent, meter } = metered();
    const source$ = m.cold('-a-b-a-b-u|', VALUES);
    m.expect(source$.pipe(meter), '----!').toBeObservable('-a-b', VALUES);
    m.expect(source$, '^---!').toBeObservable('-a-b', VALUES);
    m.flush();
    expect(spent).toStrictEqual([estimated('The capital is Paris.')]);
  }));

  it('tells a call that failed after its first content what it produced, and one refused before any chunk nothing', marbles((m) => {
    const after = metered();
    const before = metered();
    m.expect(m.cold('-a-#', VALUES, failed).pipe(after.meter)).toBeObservable('-a-#', VALUES, failed);
    m.expect(m.cold('--#', VALUES, failed).pipe(before.meter)).toBeObservable('--#', VALUES, failed);
    m.flush();
    expect(after.spent).toStrictEqual([estimated('The capital ')]);
    expect(before.spent).toStrictEqual([undefined]);
  }));

  it('tells a call that failed after the upstream answered, before any content, its input', marbles((m) => {
    const { spent, meter } = metered();
    m.expect(m.cold('-r-#', VALUES, failed).pipe(meter)).toBeObservable('-r-#', VALUES, failed);
    m.flush();
    expect(spent).toStrictEqual([estimated('')]);
    expect(spent[0]!.tokens.input).toBeGreaterThan(0);
  }));

  it('counts nothing for a call without a price: no estimate, no usage chunk, its spend unpriced', marbles((m) => {
    const { spent, meter } = metered(null);
    m.expect(m.cold('-a-b|', VALUES).pipe(meter)).toBeObservable('-a-b|', VALUES);
    m.flush();
    expect(spent).toStrictEqual([{ tokens: { input: 0, cachedInput: 0, cacheWrite: 0, output: 0 }, cost: { usd: 0, priced: false, estimated: false } }]);
  }));
});
