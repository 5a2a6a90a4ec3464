import { map, reduce, type OperatorFunction } from 'rxjs';
import type { AgentEvent, FinishReason, Usage } from '../agent/agentEvent.js';
import { sumUsage, ZERO_USAGE } from '../agent/sumUsage.js';
import type { ChatCompletionMeta, ChatUsage } from './chatCompletionChunk.js';
import { toChatUsage } from './toChatChunks.js';

/** The non-streaming `chat.completion` object. */
export interface ChatCompletion {
  readonly id: string;
  readonly object: 'chat.completion';
  readonly created: number;
  readonly model: string;
  readonly choices: readonly [
    {
      readonly index: 0;
      readonly message: { readonly role: 'assistant'; readonly content: string; readonly reasoning_content?: string };
      readonly logprobs: null;
      readonly finish_reason: FinishReason;
    },
  ];
  readonly usage: ChatUsage;
}

interface Answer {
  readonly content: string;
  readonly reasoning: string;
  readonly usage: Usage;
  readonly finishReason: FinishReason | undefined;
}

function accumulate(answer: Answer, event: AgentEvent): Answer {
  switch (event.type) {
    case 'text':
      return { ...answer, content: answer.content + event.delta };
    case 'reasoning':
      return { ...answer, reasoning: answer.reasoning + event.delta };
    case 'usage':
      return { ...answer, usage: sumUsage(answer.usage, event.usage) };
    case 'finish':
      return { ...answer, finishReason: answer.finishReason ?? event.reason };
    default:
      return answer;
  }
}

/**
 * Collects a whole run into one `chat.completion`, emitted when the run completes.
 *
 * ```
 * source:   --t--t--f--|
 * result:   -----------(C|)
 * ```
 */
export function toChatCompletion(meta: ChatCompletionMeta): OperatorFunction<AgentEvent, ChatCompletion> {
  const empty: Answer = { content: '', reasoning: '', usage: ZERO_USAGE, finishReason: undefined };
  return (events$) =>
    events$.pipe(
      reduce(accumulate, empty),
      map(({ content, reasoning, usage, finishReason }) => ({
        id: meta.id,
        object: 'chat.completion' as const,
        created: meta.created,
        model: meta.model,
        choices: [
          {
            index: 0 as const,
            message: { role: 'assistant' as const, content, ...(reasoning ? { reasoning_content: reasoning } : {}) },
            logprobs: null,
            finish_reason: finishReason ?? 'stop',
          },
        ] as const,
        usage: toChatUsage(usage),
      })),
    );
}
