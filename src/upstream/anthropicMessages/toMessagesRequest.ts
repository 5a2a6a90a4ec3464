import { toMessagesTools } from './toMessagesTools.js';
import { toMessagesTurns } from './toMessagesTurns.js';
import { toThinking } from './toThinking.js';

/** The `max_tokens` of a body that names none, for a target without `maxOutputTokens`: Anthropic requires one. */
export const DEFAULT_MAX_TOKENS = 4096;

const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;

/**
 * The streamed chat completions body rxgate builds for a model call, as the Messages request an
 * `anthropic` upstream takes: the conversation (`toMessagesTurns`), tools (`toMessagesTools`),
 * `max_tokens` (the body's `max_tokens` or `max_completion_tokens`, else `maxOutputTokens`, else
 * `DEFAULT_MAX_TOKENS`), `stop` as `stop_sequences`, `temperature` (at most 1, Anthropic's
 * range) and `top_p`, `reasoning_effort` as `thinking` (without `temperature` and `top_p`,
 * which Anthropic refuses beside it; not in a call that sends tool results), and `user` as `metadata.user_id`. The rest (`seed`, the
 * penalties, `logit_bias`, `response_format`, OpenAI's `metadata` and prompt caching keys) has no
 * Messages counterpart and is dropped.
 */
export function toMessagesRequest(body: Readonly<Record<string, unknown>>, maxOutputTokens?: number): Record<string, unknown> {
  const maxTokens = count(body.max_tokens) ?? count(body.max_completion_tokens) ?? maxOutputTokens ?? DEFAULT_MAX_TOKENS;
  const { stop, temperature, top_p, user } = body;
  const stopSequences = typeof stop === 'string' ? [stop] : Array.isArray(stop) && stop.length > 0 ? stop : undefined;
  const turns = toMessagesTurns(Array.isArray(body.messages) ? body.messages : []);
  // With thinking on, Anthropic wants the assistant turn a tool result answers to begin with its thinking block, signed,
  // which the chat history does not keep: such a continuation goes without thinking.
  const answersTools = turns.messages.at(-1)?.content.some((block) => block.type === 'tool_result') ?? false;
  const thinking = answersTools ? undefined : toThinking(body.reasoning_effort, maxTokens);
  return {
    model: body.model,
    max_tokens: maxTokens,
    ...turns,
    ...toMessagesTools(body),
    ...(stopSequences ? { stop_sequences: stopSequences } : {}),
    ...(thinking ? { thinking } : {}),
    ...(!thinking && typeof temperature === 'number' ? { temperature: Math.min(temperature, 1) } : {}),
    ...(!thinking && typeof top_p === 'number' ? { top_p } : {}),
    ...(typeof user === 'string' && user !== '' ? { metadata: { user_id: user } } : {}),
    stream: true,
  };
}
