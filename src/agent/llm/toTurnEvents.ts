import { Observable, type OperatorFunction, type Subscriber } from 'rxjs';
import type { ToolCall } from '../agent.js';
import type { AgentEvent, AgentEventOf, Usage } from '../agentEvent.js';
import { createTextBuffer } from './createTextBuffer.js';
import { createToolCallAssembler, type ToolCallAssembler } from './createToolCallAssembler.js';
import type { UpstreamChunk, UpstreamToolCallDelta } from '../../upstream/upstreamChunk.js';
import { Stage } from '../../rx/Stage.js';

/** The last value of a model call: what the assistant said and asked for, and why it stopped. */
export interface TurnEnd {
  readonly type: 'turn_end';
  readonly content: string;
  /** The calls of tools the agent runs itself (and of tools nobody has), in upstream order. */
  readonly toolCalls: readonly ToolCall[];
  /** The calls of client tools, streamed as `tool_call_delta`s, in the order of their `index`. */
  readonly clientToolCalls: readonly ToolCall[];
  readonly finishReason: string | null;
}

export type TurnEvent = AgentEvent | TurnEnd;

const NO_NAMES: ReadonlySet<string> = new Set();

export interface TurnEventsOptions {
  /** The names of the client's tools: calls to them stream out as they arrive. Default: none. */
  readonly clientToolNames?: ReadonlySet<string>;
  /**
   * Characters of tool-call names and arguments the call may send; past it the call is cut: the
   * upstream is unsubscribed and the turn ends with `length` and no calls to run. Default: no cap.
   */
  readonly maxToolCallChars?: number;
}

type ToolCallDelta = AgentEventOf<'tool_call_delta'>;

function toUsage(usage: NonNullable<UpstreamChunk['usage']>, cost: UpstreamChunk['cost']): Usage {
  const inputTokens = usage.prompt_tokens ?? 0;
  const outputTokens = usage.completion_tokens ?? 0;
  const cachedInputTokens = usage.prompt_tokens_details?.cached_tokens;
  const reasoningTokens = usage.completion_tokens_details?.reasoning_tokens;
  return {
    inputTokens,
    outputTokens,
    totalTokens: usage.total_tokens ?? inputTokens + outputTokens,
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
    ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
    ...(cost?.priced ? { costUsd: cost.usd } : {}),
    ...(cost?.estimated ? { costEstimated: true } : {}),
  };
}

/** The state of one model call's `toTurnEvents`, for every open stream. */
class TurnReader extends Stage<UpstreamChunk, TurnEvent> {
  // Made at the first tool-call fragment: a turn that only talks (most, and every open stream) holds none of it.
  private toolCalls: ToolCallAssembler | undefined;
  // Upstream index -> client index, in the order the client calls were recognised.
  private clientIndexes: Map<number, number> | undefined;
  private serverIndexes: Set<number> | undefined;
  // Kept for the assistant message a tool call goes back with: flat, not a rope node per delta.
  private readonly content = createTextBuffer();
  private finishReason: string | null = null;
  private usage: Usage | undefined;
  private toolCallChars = 0;
  private cut = false;

  constructor(
    destination: Subscriber<TurnEvent>,
    private readonly clientToolNames: ReadonlySet<string>,
    private readonly maxToolCallChars: number,
  ) {
    super(destination);
  }

  // A source that crossed the cap while it was being subscribed to is ended now.
  protected override onSubscribed(): void {
    if (this.cut) this.endCut();
  }

  // rxgate asks for one choice, so a chunk carries at most one reasoning, one content and one refusal delta,
  // emitted in that order (then its client tool-call pieces) by the one subscriber every delta
  // of every answer goes through: no branches, no inner Observable per chunk.
  protected onNext(chunk: UpstreamChunk): void {
    const { destination } = this;
    if (chunk.usage) this.usage = toUsage(chunk.usage, chunk.cost);
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta;
    const reasoning = delta?.reasoning_content ?? delta?.reasoning;
    if (reasoning) destination.next({ type: 'reasoning', delta: reasoning });
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const text = delta?.content;
    if (text) {
      this.content.append(text);
      destination.next({ type: 'text', delta: text });
    }
    if (delta?.refusal) destination.next({ type: 'refusal', delta: delta.refusal });
    for (const fragment of delta?.tool_calls ?? []) {
      if (this.crossesCap(fragment)) return;
      const piece = this.route(fragment);
      if (piece) destination.next(piece);
    }
  }

  protected override onError(error: unknown): void {
    if (!this.cut) this.destination.error(error);
  }

  protected override onComplete(): void {
    if (this.cut) return;
    if (this.usage) this.destination.next({ type: 'usage', usage: this.usage });
    this.destination.next(this.turnEnd());
    this.destination.complete();
  }

  /** An upstream may stream a call's arguments without end: each would be held, then sent back to it. */
  private crossesCap(fragment: UpstreamToolCallDelta): boolean {
    if (this.cut) return true;
    this.toolCallChars += (fragment.function?.name?.length ?? 0) + (fragment.function?.arguments?.length ?? 0);
    if (this.toolCallChars <= this.maxToolCallChars) return false;
    this.cut = true;
    this.endCut();
    return true;
  }

  // The upstream is unsubscribed (its request aborted) before the turn ends; no call of it is run, none goes back.
  private endCut(): void {
    if (!this.subscribed) return;
    this.unsubscribe();
    const content = this.content.text();
    this.destination.next({ type: 'turn_end', content, toolCalls: [], clientToolCalls: [], finishReason: 'length' });
    this.destination.complete();
  }

  private route(fragment: UpstreamToolCallDelta): ToolCallDelta | undefined {
    const toolCalls = (this.toolCalls ??= createToolCallAssembler());
    const clientIndexes = (this.clientIndexes ??= new Map());
    const serverIndexes = (this.serverIndexes ??= new Set());
    const at = toolCalls.add(fragment);
    if (serverIndexes.has(at)) return undefined;
    const index = clientIndexes.get(at);
    if (index !== undefined) {
      const piece = fragment.function?.arguments;
      return piece ? { type: 'tool_call_delta', index, arguments: piece } : undefined;
    }
    const call = toolCalls.call(at);
    // No name yet, so no side: its arguments wait in the assembler.
    if (call.function.name === '') return undefined;
    if (!this.clientToolNames.has(call.function.name)) {
      serverIndexes.add(at);
      return undefined;
    }
    clientIndexes.set(at, clientIndexes.size);
    return {
      type: 'tool_call_delta',
      index: clientIndexes.size - 1,
      id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
    };
  }

  private turnEnd(): TurnEnd {
    const end: TurnEnd = {
      type: 'turn_end',
      content: this.content.text(),
      toolCalls: [],
      clientToolCalls: [],
      finishReason: this.finishReason,
    };
    const calls = this.toolCalls;
    const clients = this.clientIndexes;
    if (!calls || !clients) return end;
    return {
      ...end,
      toolCalls: calls
        .indexes()
        .filter((at) => !clients.has(at))
        .map((at) => calls.call(at)),
      clientToolCalls: [...clients.keys()].map((at) => calls.call(at)),
    };
  }
}

/**
 * Turns the chunks of one model call into agent events as they arrive (text, reasoning and refusal
 * deltas, and the fragments of client tool calls), then one `usage` event for the call and a
 * `turn_end` with the assembled tool calls. Usage is taken from the last chunk that carries it,
 * since some upstreams repeat a running total on every chunk: the one event per call stays additive.
 *
 * A tool call is sorted by its name as soon as a fragment has brought one: a client tool's call
 * streams out as `tool_call_delta`s (the first with the id, the name and the arguments so far),
 * numbered among the client calls only; any other call is assembled silently for the agent to run.
 * Past `maxToolCallChars` of names and arguments the call is cut, as `maxOutput` cuts text.
 *
 * ```
 * source:   -c--r--t--k--k-|        c = content, r = reasoning, t = server tool-call fragment,
 * result:   -T--R-----D--D-(UE|)    k = client tool-call fragment, D = tool_call_delta,
 *                                   U = usage, E = turn_end with the tool calls
 * ```
 */
export function toTurnEvents({ clientToolNames = NO_NAMES, maxToolCallChars = Infinity }: TurnEventsOptions = {}): OperatorFunction<
  UpstreamChunk,
  TurnEvent
> {
  return (chunks$) =>
    new Observable<TurnEvent>((destination) => new TurnReader(destination, clientToolNames, maxToolCallChars).subscribeTo(chunks$));
}
