import { Observable, type MonoTypeOperatorFunction, type Subscriber } from 'rxjs';
import type { CallCost } from '../money/CallCost.js';
import { costOf, type CallTokens } from '../money/costOf.js';
import type { Price } from '../money/price.js';
import { Stage } from '../rx/Stage.js';
import type { UpstreamChunk } from './upstreamChunk.js';

const UNPRICED: CallCost = { usd: 0, priced: false };

function tokensOf(usage: NonNullable<UpstreamChunk['usage']>): CallTokens {
  return {
    input: usage.prompt_tokens ?? 0,
    cachedInput: usage.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWrite: usage.prompt_tokens_details?.cache_write_tokens ?? 0,
    output: usage.completion_tokens ?? 0,
  };
}

/** One attempt's pricing, for every open stream: a chunk without usage passes as it is. */
class UsagePricer extends Stage<UpstreamChunk> {
  private told = false;

  constructor(
    destination: Subscriber<UpstreamChunk>,
    private readonly price: Price | undefined,
    private readonly onFirstCost: (cost: CallCost) => void,
  ) {
    super(destination);
  }

  protected onNext(chunk: UpstreamChunk): void {
    if (!chunk.usage) {
      this.destination.next(chunk);
      return;
    }
    const cost = this.price ? { usd: costOf(this.price, tokensOf(chunk.usage)), priced: true } : UNPRICED;
    if (!this.told) {
      this.told = true;
      this.onFirstCost(cost);
    }
    this.destination.next({ ...chunk, cost });
  }
}

/**
 * Prices each usage chunk of one attempt at `price` (none: the call costs nothing and is unpriced),
 * as the chunk's `cost`: an upstream that repeats its usage on every chunk (vLLM's continuous
 * usage) has each priced, the last one counting. `onFirstCost` is told once, at the first.
 *
 * ```
 * source:   --t--t--u|       u = usage chunk
 * result:   --t--t--c|       c = u with its cost
 * ```
 */
export function priceUsage(price: Price | undefined, onFirstCost: (cost: CallCost) => void): MonoTypeOperatorFunction<UpstreamChunk> {
  return (chunks$) => new Observable<UpstreamChunk>((destination) => new UsagePricer(destination, price, onFirstCost).subscribeTo(chunks$));
}
