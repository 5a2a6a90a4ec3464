import { Observable, type OperatorFunction, type Subscriber } from 'rxjs';
import type { AgentEvent, FinishReason, Usage } from '../agent/agentEvent.js';
import { usageCost } from '../agent/usageCost.js';
import { sumUsage, ZERO_USAGE } from '../agent/sumUsage.js';
import { ToolCallSequence } from '../agent/ToolCallSequence.js';
import type { ChatCompletionChunk, ChatCompletionMeta, ChatDelta, ChatUsage, RxgateToolProgress } from './chatCompletionChunk.js';
import { Stage } from '../rx/Stage.js';
import { CustomCallInputs, functionPiece } from './CustomCallInputs.js';

export function toChatUsage(usage: Usage): ChatUsage {
  const { cachedInputTokens, reasoningTokens } = usage;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens,
    ...usageCost(usage),
    ...(cachedInputTokens === undefined ? {} : { prompt_tokens_details: { cached_tokens: cachedInputTokens } }),
    ...(reasoningTokens === undefined ? {} : { completion_tokens_details: { reasoning_tokens: reasoningTokens } }),
  };
}

const USAGE_NULL = { usage: null };
const NO_USAGE = {};

/**
 * Encodes one answer's chunks, for every open stream. Tool calls are sequenced as
 * `sequenceToolCalls` does, in this subscriber: one for every delta of the answer, no concat, map,
 * filter or sequencing stages each holding their own.
 */
class ChatChunkEncoder extends Stage<AgentEvent, ChatCompletionChunk> {
  private readonly sequence = new ToolCallSequence();
  /** Only when the client has custom tools: every other answer's calls are passed on piece by piece. */
  private readonly customCalls: CustomCallInputs | undefined;
  private usage = ZERO_USAGE;
  private finished = false;

  constructor(
    destination: Subscriber<ChatCompletionChunk>,
    private readonly meta: ChatCompletionMeta,
  ) {
    super(destination);
    this.customCalls = meta.customTools?.size ? new CustomCallInputs(meta.customTools) : undefined;
  }

  protected onNext(event: AgentEvent): void {
    if (event.type === 'finish') this.releaseHeld();
    if (!this.sequence.holds(event)) this.emit(event);
  }

  protected override onComplete(): void {
    const { meta, destination } = this;
    this.releaseHeld();
    if (!this.finished) destination.next(this.chunk({}, 'stop'));
    if (meta.includeUsage) {
      destination.next({
        id: meta.id,
        object: 'chat.completion.chunk',
        created: meta.created,
        model: meta.model,
        choices: [],
        usage: toChatUsage(this.usage),
      });
    }
    destination.complete();
  }

  chunk(delta: ChatDelta, finishReason: FinishReason | null = null): ChatCompletionChunk {
    const { meta } = this;
    return {
      id: meta.id,
      object: 'chat.completion.chunk',
      created: meta.created,
      model: meta.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(meta.includeUsage ? USAGE_NULL : NO_USAGE),
    };
  }

  private toolChunk(progress: RxgateToolProgress): ChatCompletionChunk | undefined {
    return this.meta.toolProgress ? { ...this.chunk({}), rxgate_tool: progress } : undefined;
  }

  private emit(event: AgentEvent): void {
    const encoded = this.encode(event);
    if (encoded !== undefined) this.destination.next(encoded);
  }

  private releaseHeld(): void {
    for (const piece of this.sequence.release()) this.emit(piece);
    for (const piece of this.customCalls?.close() ?? []) this.destination.next(this.chunk({ tool_calls: [piece] }));
  }

  // One event makes at most one chunk (but a custom call's delta): map and filter, no inner Observable per delta.
  private encode(event: AgentEvent): ChatCompletionChunk | undefined {
    switch (event.type) {
      case 'text':
        return event.delta === '' ? undefined : this.chunk({ content: event.delta });
      case 'reasoning':
        return event.delta === '' ? undefined : this.chunk({ reasoning_content: event.delta });
      case 'refusal':
        return event.delta === '' ? undefined : this.chunk({ refusal: event.delta });
      case 'tool_call_delta':
        if (!this.customCalls) return this.chunk({ tool_calls: [functionPiece(event)] });
        // A custom call's pieces are its own: none for most deltas, two where a call ends and the next begins.
        for (const piece of this.customCalls.take(event)) this.destination.next(this.chunk({ tool_calls: [piece] }));
        return undefined;
      case 'usage':
        this.usage = sumUsage(this.usage, event.usage);
        return undefined;
      case 'tool_start':
        return this.toolChunk({ type: 'start', call_id: event.callId, name: event.name, arguments: event.arguments });
      case 'tool_progress': {
        const { callId, name, progress, total, message } = event;
        const reported = { ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) };
        return this.toolChunk({ type: 'progress', call_id: callId, name, progress, ...reported });
      }
      case 'tool_end': {
        const outcome = event.error === undefined ? { result: event.result ?? '' } : { error: event.error };
        return this.toolChunk({ type: 'end', call_id: event.callId, name: event.name, ...outcome, duration_ms: event.durationMs });
      }
      case 'finish':
        if (this.finished) return undefined;
        this.finished = true;
        return this.chunk({}, event.reason);
      default:
        return undefined;
    }
  }
}

/**
 * Encodes agent events as `chat.completion.chunk`s: the role chunk first, one chunk per text,
 * reasoning or refusal delta, the finish chunk, and with `includeUsage` a last chunk with `choices: []` and
 * the run's summed usage. A piece of a client tool call is a chunk with one `tool_calls` entry:
 * `index` as the agent numbered the client's calls, and `id`, `type` and the function's `name` in
 * the first piece of each call only; the pieces of parallel calls are put in sequence, one call
 * after the other (`sequenceToolCalls`), as OpenAI streams them. A call of one of the client's
 * custom tools (`meta.customTools`) is a `custom` tool call, its input whole in its last piece
 * (`CustomCallInputs`). With `toolProgress`, each tool the
 * agent runs itself starts and ends with a chunk that has an empty delta and an `rxgate_tool`
 * field; without it, those tools leave no trace. A run that ends without a finish event finishes
 * with `stop`; a run that fails emits no finish chunk at all, so the error is never mistaken for a
 * clean answer.
 *
 * ```
 * source:   --t--t--f--|           t = text, f = finish
 * result:   R-T--T--F--(U|)        R = role, U = usage (with includeUsage)
 *
 * source:   --a--b--c--d--f|       a/b = first pieces of client calls 0 and 1, c/d = later pieces
 * result:   R-A-----C-----(BDF|)   A = {index 0, id, type, name, arguments}, C = {index 0, arguments}
 * ```
 */
export function toChatChunks(meta: ChatCompletionMeta): OperatorFunction<AgentEvent, ChatCompletionChunk> {
  return (events$) =>
    new Observable<ChatCompletionChunk>((destination) => {
      const encoder = new ChatChunkEncoder(destination, meta);
      destination.next(encoder.chunk({ role: 'assistant' }));
      // A subscriber that left at the role chunk never starts the run.
      if (destination.closed) return;
      return encoder.subscribeTo(events$);
    });
}
