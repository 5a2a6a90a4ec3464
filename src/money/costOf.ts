import type { Price, Rates } from './price.js';
import { roundUsd } from './usd.js';

/** The tokens of one model call, by how they are priced. */
export interface CallTokens {
  /** Every input token, cached and cache-written ones included (OpenAI's `prompt_tokens`). */
  readonly input: number;
  /** Of `input`, those read from the cache. */
  readonly cachedInput: number;
  /** Of `input`, those written to the cache. */
  readonly cacheWrite: number;
  /** Every output token, reasoning included. */
  readonly output: number;
}

/** The rates a call of `inputTokens` pays: its highest tier above which it lies, over the base price. */
function ratesFor(price: Price, inputTokens: number): Rates {
  let chosen: Partial<Rates> & { aboveInputTokens: number } = { aboveInputTokens: -1 };
  for (const tier of price.tiers ?? []) {
    if (inputTokens > tier.aboveInputTokens && tier.aboveInputTokens > chosen.aboveInputTokens) chosen = tier;
  }
  return {
    input: chosen.input ?? price.input,
    cachedInput: chosen.cachedInput ?? price.cachedInput,
    cacheWrite: chosen.cacheWrite ?? price.cacheWrite,
    output: chosen.output ?? price.output,
    perRequest: chosen.perRequest ?? price.perRequest,
  };
}

/**
 * The USD one model call costs at `price`: cached and cache-written input at their own rates (the
 * input rate when the price has none), never also as input; reasoning as output; the per-call price once.
 */
export function costOf(price: Price, tokens: CallTokens): number {
  const rates = ratesFor(price, tokens.input);
  const plainInput = Math.max(0, tokens.input - tokens.cachedInput - tokens.cacheWrite);
  const perToken =
    plainInput * rates.input +
    tokens.cachedInput * (rates.cachedInput ?? rates.input) +
    tokens.cacheWrite * (rates.cacheWrite ?? rates.input) +
    tokens.output * rates.output;
  return roundUsd(perToken / 1e6 + (rates.perRequest ?? 0));
}
