import { z } from 'zod';
import type { CallCost } from '../money/CallCost.js';

/** One tool-call fragment of a streamed delta; the first fragment of a call carries its id and name. */
export interface UpstreamToolCallDelta {
  readonly index?: number;
  readonly id?: string;
  readonly type?: 'function';
  readonly function?: { readonly name?: string; readonly arguments?: string };
}

/** A `chat.completion.chunk` as OpenAI-compatible upstreams stream it, typed as loosely as they send it. */
export interface UpstreamChunk {
  /** The response's `id` and `model` as the upstream names them: on a stream's first chunk only (`upstreamChunks`); the rest repeat them. */
  readonly id?: string;
  readonly model?: string;
  readonly choices?: readonly {
    readonly delta?: {
      readonly content?: string | null;
      /** OpenAI's refusal, which comes in place of content. */
      readonly refusal?: string | null;
      /** DeepSeek, vLLM and llama.cpp name it `reasoning_content`; OpenRouter and Ollama `reasoning`. */
      readonly reasoning_content?: string | null;
      readonly reasoning?: string | null;
      readonly tool_calls?: readonly UpstreamToolCallDelta[] | null;
    };
    readonly finish_reason?: string | null;
  }[];
  readonly usage?: {
    readonly prompt_tokens?: number;
    readonly completion_tokens?: number;
    readonly total_tokens?: number;
    /** `cache_write_tokens` as OpenRouter names the input written to the cache (Anthropic's `cache_creation_input_tokens`). */
    readonly prompt_tokens_details?: { readonly cached_tokens?: number; readonly cache_write_tokens?: number };
    readonly completion_tokens_details?: { readonly reasoning_tokens?: number };
  } | null;
  /** What the model call cost, priced by rxgate on the usage chunk (`priceUsage`); never read from the upstream. */
  readonly cost?: CallCost;
}

/** Absent or `null`, as upstreams send either for a field they have nothing for: `undefined` from here on. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((value) => value ?? undefined);

const text = optional(z.string());
const tokens = optional(z.number().int().nonnegative());

const toolCallDelta = z.object({
  index: optional(z.number().int().nonnegative()),
  id: text,
  function: optional(z.object({ name: text, arguments: text })),
});

/**
 * Exactly what rxgate reads of an upstream chunk, each with the type it is read as: text is a
 * string, a token count a non-negative integer, a list an array. Unknown fields are dropped, and
 * `null` means absent, as real upstreams send it; `choices: []` is a usage-only chunk.
 */
export const upstreamChunkSchema: z.ZodType<UpstreamChunk> = z.object({
  choices: optional(
    z.array(
      z.object({
        delta: optional(
          z.object({
            content: text,
            refusal: text,
            reasoning_content: text,
            reasoning: text,
            tool_calls: optional(z.array(toolCallDelta)),
          }),
        ),
        finish_reason: text,
      }),
    ),
  ),
  usage: optional(
    z.object({
      prompt_tokens: tokens,
      completion_tokens: tokens,
      total_tokens: tokens,
      prompt_tokens_details: optional(z.object({ cached_tokens: tokens, cache_write_tokens: tokens })),
      completion_tokens_details: optional(z.object({ reasoning_tokens: tokens })),
    }),
  ),
});
