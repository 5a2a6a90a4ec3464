import { countChatInput } from '../wire/countChatInput.js';
import type { Counter } from '../wire/tokenCount.js';
import { costOf } from './costOf.js';
import type { Price } from './price.js';

/** The output tokens a request body asks for at most, if it names a limit. */
function outputLimit(body: Readonly<Record<string, unknown>>): number | undefined {
  for (const field of ['max_completion_tokens', 'max_tokens', 'max_output_tokens']) {
    const value = body[field];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  }
  return undefined;
}

/**
 * What a model call of `body` can cost at most at `price`: its input counted, none of it cached,
 * and the output it asks for at most (`otherwise` when it names no limit).
 */
export function worstCaseUsd(price: Price, body: Readonly<Record<string, unknown>>, count: Counter, otherwise: number): number {
  const input = countChatInput(count, body);
  return costOf(price, { input, cachedInput: 0, cacheWrite: 0, output: outputLimit(body) ?? otherwise });
}
