import type { FinishReason } from '../agent/agentEvent.js';

export interface ChatUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

export interface ChatDelta {
  readonly role?: 'assistant';
  readonly content?: string;
  readonly reasoning_content?: string;
}

export interface ChatChunkChoice {
  readonly index: 0;
  readonly delta: ChatDelta;
  readonly logprobs: null;
  readonly finish_reason: FinishReason | null;
}

/** One `chat.completion.chunk`, as the OpenAI SDKs parse it. */
export interface ChatCompletionChunk {
  readonly id: string;
  readonly object: 'chat.completion.chunk';
  readonly created: number;
  readonly model: string;
  readonly choices: readonly ChatChunkChoice[];
  readonly usage?: ChatUsage | null;
}

/** What every chunk of one completion shares. */
export interface ChatCompletionMeta {
  readonly id: string;
  readonly created: number;
  readonly model: string;
  /** `stream_options.include_usage`: `usage: null` on every chunk and a final usage chunk. */
  readonly includeUsage: boolean;
}
