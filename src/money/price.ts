import { z } from 'zod';

const usdPerMillion = z.number().nonnegative().finite();

const rates = {
  /** USD per million input tokens not read from or written to the cache. */
  input: usdPerMillion,
  /** USD per million input tokens read from the cache. Default: `input`. */
  cachedInput: usdPerMillion.optional(),
  /** USD per million input tokens written to the cache (Anthropic's cache creation). Default: `input`. */
  cacheWrite: usdPerMillion.optional(),
  /** USD per million output tokens, reasoning included. */
  output: usdPerMillion,
  /** USD per model call, whatever its tokens. Default: 0. */
  perRequest: z.number().nonnegative().finite().optional(),
};

const tier = z.strictObject({
  aboveInputTokens: z.number().int().nonnegative(),
  input: rates.input.optional(),
  cachedInput: rates.cachedInput,
  cacheWrite: rates.cacheWrite,
  output: rates.output.optional(),
  perRequest: rates.perRequest,
});

/** What a model's calls cost: `input` and `output` required, tiers for long prompts. */
export const priceSchema = z.strictObject({ ...rates, tiers: z.array(tier).optional() });

/** A tier's prices, each field it leaves out the base price's. */
export interface Tier extends Partial<Rates> {
  /** The tier prices a whole call whose input tokens (cached ones included) exceed this. */
  readonly aboveInputTokens: number;
}

export interface Rates {
  readonly input: number;
  readonly cachedInput?: number;
  readonly cacheWrite?: number;
  readonly output: number;
  readonly perRequest?: number;
}

export interface Price extends Rates {
  readonly tiers?: readonly Tier[];
}
