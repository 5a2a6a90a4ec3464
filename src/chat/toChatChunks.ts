import { Observable, type OperatorFunction } from 'rxjs';
import type { AgentEvent, FinishReason, Usage } from '../agent/agentEvent.js';
import { sumUsage, ZERO_USAGE } from '../agent/sumUsage.js';
import type { AgentEventOf } from '../agent/agentEvent.js';
import { ToolCallSequence } from './ToolCallSequence.js';
import type {
  ChatCompletionChunk,
  ChatCompletionMeta,
  ChatDelta,
  ChatToolCallDelta,
  ChatUsage,
  RxgateToolProgress,
} from './chatCompletionChunk.js';

export function toChatUsage(usage: Usage): ChatUsage {
  return { prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens, total_tokens: usage.totalTokens };
}

/** A client tool call's piece as OpenAI streams it: id, type and name in the first piece of each call only. */
function toToolCallDelta({ index, id, name, arguments: fragment }: AgentEventOf<'tool_call_delta'>): ChatToolCallDelta {
  return id === undefined
    ? { index, function: { arguments: fragment } }
    : { index, id, type: 'function', function: { name: name ?? '', arguments: fragment } };
}

/**
 * Encodes agent events as `chat.completion.chunk`s: the role chunk first, one chunk per text or
 * reasoning delta, the finish chunk, and with `includeUsage` a last chunk with `choices: []` and
 * the run's summed usage. A piece of a client tool call is a chunk with one `tool_calls` entry:
 * `index` as the agent numbered the client's calls, and `id`, `type` and the function's `name` in
 * the first piece of each call only; the pieces of parallel calls are put in sequence, one call
 * after the other (`sequenceToolCalls`), as OpenAI streams them. With `toolProgress`, each tool the
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
  const usageField = meta.includeUsage ? { usage: null } : {};
  const chunk = (delta: ChatDelta, finishReason: FinishReason | null = null): ChatCompletionChunk => ({
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...usageField,
  });
  const toolChunk = (progress: RxgateToolProgress): ChatCompletionChunk | undefined =>
    meta.toolProgress ? { ...chunk({}), rxgate_tool: progress } : undefined;

  return (events$) =>
    new Observable<ChatCompletionChunk>((subscriber) => {
      let usage = ZERO_USAGE;
      let finished = false;
      // One event makes at most one chunk: map and filter, no inner Observable per delta.
      function encode(event: AgentEvent): ChatCompletionChunk | undefined {
        switch (event.type) {
          case 'text':
            return event.delta === '' ? undefined : chunk({ content: event.delta });
          case 'reasoning':
            return event.delta === '' ? undefined : chunk({ reasoning_content: event.delta });
          case 'tool_call_delta':
            return chunk({ tool_calls: [toToolCallDelta(event)] });
          case 'usage':
            usage = sumUsage(usage, event.usage);
            return undefined;
          case 'tool_start':
            return toolChunk({ type: 'start', call_id: event.callId, name: event.name, arguments: event.arguments });
          case 'tool_progress': {
            const { callId, name, progress, total, message } = event;
            const reported = { ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) };
            return toolChunk({ type: 'progress', call_id: callId, name, progress, ...reported });
          }
          case 'tool_end': {
            const outcome = event.error === undefined ? { result: event.result ?? '' } : { error: event.error };
            return toolChunk({ type: 'end', call_id: event.callId, name: event.name, ...outcome, duration_ms: event.durationMs });
          }
          case 'finish':
            if (finished) return undefined;
            finished = true;
            return chunk({}, event.reason);
          default:
            return undefined;
        }
      }
      subscriber.next(chunk({ role: 'assistant' }));
      // A subscriber that left at the role chunk never starts the run.
      if (subscriber.closed) return;
      // Tool calls sequenced as `sequenceToolCalls` does, in this subscriber: one for every delta of the
      // answer, no concat, map, filter or sequencing stages each holding their own.
      const sequence = new ToolCallSequence();
      const emit = (event: AgentEvent) => {
        const encoded = encode(event);
        if (encoded !== undefined) subscriber.next(encoded);
      };
      const releaseHeld = () => {
        for (const piece of sequence.release()) emit(piece);
      };
      return events$.subscribe({
        next: (event) => {
          if (event.type === 'finish') releaseHeld();
          if (!sequence.holds(event)) emit(event);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          releaseHeld();
          if (!finished) subscriber.next(chunk({}, 'stop'));
          if (meta.includeUsage) {
            subscriber.next({
              id: meta.id,
              object: 'chat.completion.chunk',
              created: meta.created,
              model: meta.model,
              choices: [],
              usage: toChatUsage(usage),
            });
          }
          subscriber.complete();
        },
      });
    });
}
