import { Observable, type MonoTypeOperatorFunction, type Subscriber } from 'rxjs';
import type { CallCost } from '../money/CallCost.js';
import { costOf, type CallTokens } from '../money/costOf.js';
import type { Price } from '../money/price.js';
import { Stage } from '../rx/Stage.js';
import { countChatInput } from '../wire/countChatInput.js';
import { loadedTokenCounter, tokenCounter, type Counter } from '../wire/tokenCount.js';
import type { UpstreamChunk } from './upstreamChunk.js';

type ReportedUsage = NonNullable<UpstreamChunk['usage']>;

/** What an attempt spent, as `meterAttempt` tells it once. */
export interface AttemptSpend {
  readonly tokens: CallTokens;
  readonly cost: CallCost;
}

const NO_TOKENS: CallTokens = { input: 0, cachedInput: 0, cacheWrite: 0, output: 0 };

function reportedTokens(usage: ReportedUsage): CallTokens {
  return {
    input: usage.prompt_tokens ?? 0,
    cachedInput: usage.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWrite: usage.prompt_tokens_details?.cache_write_tokens ?? 0,
    output: usage.completion_tokens ?? 0,
  };
}

/** The texts of a chunk the model produced: content, reasoning, refusal, and tool calls' names and arguments. */
function keepOutput(chunk: UpstreamChunk, output: string[]): void {
  const delta = chunk.choices?.[0]?.delta;
  if (!delta) return;
  const { content, reasoning_content, reasoning, refusal, tool_calls } = delta;
  if (content) output.push(content);
  if (reasoning_content) output.push(reasoning_content);
  if (reasoning) output.push(reasoning);
  if (refusal) output.push(refusal);
  for (const call of tool_calls ?? []) {
    if (call.function?.name) output.push(call.function.name);
    if (call.function?.arguments) output.push(call.function.arguments);
  }
}

/** One attempt's meter, for every open stream: a chunk without usage passes as it is. */
class AttemptMeter extends Stage<UpstreamChunk> {
  /** The last usage reported, priced: what the attempt spent, once it ends. */
  private reported: AttemptSpend | undefined;
  /** What the model produced while no usage came: kept (as references) only for a priced call, to be counted if none comes. */
  private output: string[] | undefined;
  /** Whether the upstream answered: a call that fails before its first chunk was refused, and spent nothing. */
  private answered = false;
  private told = false;

  constructor(
    destination: Subscriber<UpstreamChunk>,
    private readonly price: Price | undefined,
    private readonly body: Readonly<Record<string, unknown>>,
    private readonly onEnd: (spend: AttemptSpend | undefined) => void,
  ) {
    super(destination);
    if (price) this.output = [];
  }

  protected onNext(chunk: UpstreamChunk): void {
    if (chunk.usage) {
      this.answered = true;
      this.output = undefined;
      const { price } = this;
      const tokens = reportedTokens(chunk.usage);
      const cost: CallCost = price
        ? { usd: costOf(price, tokens), priced: true, estimated: false }
        : { usd: 0, priced: false, estimated: false };
      this.reported = { tokens, cost };
      this.destination.next({ ...chunk, cost });
      return;
    }
    this.answered = true;
    if (this.output) keepOutput(chunk, this.output);
    this.destination.next(chunk);
  }

  protected override onError(error: unknown): void {
    // Failed before the upstream answered: a refused request, which upstreams bill nothing.
    if (this.answered) this.spend();
    else this.tell(undefined);
    this.destination.error(error);
  }

  protected override onComplete(): void {
    const { reported, price } = this;
    if (reported || !price) {
      this.spend();
      this.destination.complete();
      return;
    }
    // No usage came: the estimate goes on as the call's usage chunk, so that the answer shows it.
    this.estimate(price, (spend) => {
      if (this.destination.closed) return;
      const { input, output } = spend.tokens;
      this.destination.next({
        choices: [],
        usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
        cost: spend.cost,
      });
      this.destination.complete();
    });
  }

  /** A cancel (the client left, a deadline): what was reported or produced until now is what was spent. */
  override unsubscribe(): void {
    super.unsubscribe();
    this.spend();
  }

  private spend(): void {
    if (this.told) return;
    const { reported, price } = this;
    if (reported) this.tell(reported);
    else if (price) this.estimate(price, () => undefined);
    else this.tell({ tokens: NO_TOKENS, cost: { usd: 0, priced: false, estimated: false } });
  }

  private tell(spend: AttemptSpend | undefined): void {
    this.told = true;
    this.onEnd(spend);
  }

  /** Counts the request and the output with rxgate's tokenizer, at once when it has loaded, else once it has. */
  private estimate(price: Price, then: (spend: AttemptSpend) => void): void {
    this.told = true;
    const { body } = this;
    const output = this.output?.join('') ?? '';
    this.output = undefined;
    const counted = (count: Counter) => {
      const tokens: CallTokens = { ...NO_TOKENS, input: countChatInput(count, body), output: count(output) };
      const spend = { tokens, cost: { usd: costOf(price, tokens), priced: true, estimated: true } };
      this.onEnd(spend);
      then(spend);
    };
    const loaded = loadedTokenCounter();
    if (loaded) counted(loaded);
    else void tokenCounter().then(counted);
  }
}

/**
 * Meters one attempt, for `price` (none: the call costs nothing and is unpriced). Each usage chunk
 * is priced as its `cost` (an upstream that repeats its usage on every chunk, as vLLM's continuous
 * usage does, has each priced, the last one counting). `onEnd` is told once, when the attempt
 * ends: the last usage reported, priced; for a priced call whose upstream reported none, the
 * request `body` and the output received counted by rxgate's tokenizer and marked `estimated`,
 * which a completed stream also passes on as its usage chunk. An attempt that fails before its
 * first chunk (an error status, no connection) spent nothing: `onEnd` is told `undefined`.
 *
 * ```
 * source:   --t--t--u|       u = usage chunk
 * result:   --t--t--c|       c = u with its cost; spent told at |
 * source:   --t--t--|        no usage, priced
 * result:   --t--t--e|       e = the estimated usage with its cost
 * ```
 */
export function meterAttempt(
  price: Price | undefined,
  body: Readonly<Record<string, unknown>>,
  onEnd: (spend: AttemptSpend | undefined) => void,
): MonoTypeOperatorFunction<UpstreamChunk> {
  return (chunks$) =>
    new Observable<UpstreamChunk>((destination) => new AttemptMeter(destination, price, body, onEnd).subscribeTo(chunks$));
}
