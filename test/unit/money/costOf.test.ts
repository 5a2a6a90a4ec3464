import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { costOf } from '../../../src/money/costOf.js';
import { PriceBook } from '../../../src/money/PriceBook.js';
import { parsePrices } from '../../../src/money/pricesFile.js';
import { usdText } from '../../../src/money/usd.js';

const PRICE = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15, perRequest: 0.001 };
const TOKENS = { input: 2000, cachedInput: 1500, cacheWrite: 100, output: 500 };

describe('costOf', () => {
  it('prices cached and cache-written input at their own rates, never also as input, and the call once', () => {
    // 400 plain * 3 + 1500 * 0.3 + 100 * 3.75 + 500 * 15 = 9525 per million, plus 0.001.
    expect(costOf(PRICE, TOKENS)).toBe(0.010525);
  });

  it('prices cached and cache-written input at the input rate when the price has none of their own', () => {
    expect(costOf({ input: 2, output: 10 }, TOKENS)).toBe((2000 * 2 + 500 * 10) / 1e6);
  });

  it('prices the whole call at the highest tier its input exceeds, a field the tier leaves out at the base price', () => {
    const tiered = {
      ...PRICE,
      tiers: [
        { aboveInputTokens: 1000, input: 6, output: 22.5 },
        { aboveInputTokens: 5000, input: 99 },
      ],
    };
    expect(costOf(tiered, TOKENS)).toBe(0.015475);
    expect(costOf(tiered, { ...TOKENS, input: 1000 })).toBe(costOf(PRICE, { ...TOKENS, input: 1000 }));
  });
});

describe('PriceBook', () => {
  const book = new PriceBook({ 'gpt-5': { input: 1, output: 1 }, 'gpt-*': { input: 2, output: 2 }, 'gpt-5*': { input: 3, output: 3 } });

  it('prefers an exact name, then the longer glob', () => {
    expect(book.priceOf('gpt-5')?.input).toBe(1);
    expect(book.priceOf('gpt-5-mini')?.input).toBe(3);
    expect(book.priceOf('gpt-4o')?.input).toBe(2);
    expect(book.priceOf('claude')).toBeUndefined();
  });
});

describe('the prices file', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'rxgate-prices-')), 'prices.json');

  it('names the model and the field of each problem, an unknown key included', () => {
    const bytes = Buffer.from(JSON.stringify({ models: { m: { input: -1, output: 1, cachedInputs: 2 } } }));
    writeFileSync(path, bytes);
    expect(() => parsePrices(bytes, path)).toThrow(/RXGATE_PRICES_FILE .*prices\.json:\n/);
    expect(() => parsePrices(bytes, path)).toThrow(/models\.m\.input: Too small/);
    expect(() => parsePrices(bytes, path)).toThrow(/models\.m: unknown key "cachedInputs"/);
  });

  it('refuses a file that is not JSON', () => {
    expect(() => parsePrices(Buffer.from('{'), path)).toThrow(/RXGATE_PRICES_FILE .*: not JSON/);
  });
});

describe('usdText', () => {
  it('writes a plain decimal, never an exponent', () => {
    expect([usdText(0), usdText(1e-7), usdText(0.010525), usdText(12)]).toEqual(['0', '0.0000001', '0.010525', '12']);
  });
});
