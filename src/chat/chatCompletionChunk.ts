import type { FinishReason } from '../agent/agentEvent.js';
import type { UsageCost } from '../agent/usageCost.js';

export interface ChatUsage extends UsageCost {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
  /** Only when the upstream reported them. */
  readonly prompt_tokens_details?: { readonly cached_tokens: number };
  readonly completion_tokens_details?: { readonly reasoning_tokens: number };
}

/**
 * A piece of a client tool call: the first piece of each call has `id`, `type` and the function's
 * `name`; later ones only `index` and an `arguments` fragment. A custom tool's call has `custom`
 * in place of `function`, its free-form `input` whole in its last piece.
 */
export type ChatToolCallDelta =
  | {
      readonly index: number;
      readonly id?: string;
      readonly type?: 'function';
      readonly function: { readonly name?: string; readonly arguments: string };
    }
  | {
      readonly index: number;
      readonly id?: string;
      readonly type?: 'custom';
      readonly custom: { readonly name?: string; readonly input: string };
    };

export interface ChatDelta {
  readonly role?: 'assistant';
  readonly content?: string;
  /** The model declining to answer, as OpenAI streams it. */
  readonly refusal?: string;
  readonly reasoning_content?: string;
  readonly tool_calls?: readonly ChatToolCallDelta[];
}

export interface ChatChunkChoice {
  readonly index: 0;
  readonly delta: ChatDelta;
  readonly logprobs: null;
  readonly finish_reason: FinishReason | null;
}

/**
 * rxgate's tool progress extension, on an otherwise ordinary chunk (empty delta, no finish), so
 * clients that do not know it see a chunk with nothing to add and keep working.
 */
export type RxgateToolProgress =
  | { readonly type: 'start'; readonly call_id: string; readonly name: string; readonly arguments: string }
  | {
      readonly type: 'progress';
      readonly call_id: string;
      readonly name: string;
      readonly progress: number;
      readonly total?: number;
      readonly message?: string;
    }
  | {
      readonly type: 'end';
      readonly call_id: string;
      readonly name: string;
      readonly result?: string;
      readonly error?: string;
      readonly duration_ms: number;
    };

/** One `chat.completion.chunk`, as the OpenAI SDKs parse it. */
export interface ChatCompletionChunk {
  readonly id: string;
  readonly object: 'chat.completion.chunk';
  readonly created: number;
  readonly model: string;
  readonly choices: readonly ChatChunkChoice[];
  readonly usage?: ChatUsage | null;
  /** Only with `toolProgress` on. */
  readonly rxgate_tool?: RxgateToolProgress;
}

/** What every chunk of one completion shares. */
export interface ChatCompletionMeta {
  readonly id: string;
  readonly created: number;
  readonly model: string;
  /** `stream_options.include_usage`: `usage: null` on every chunk and a final usage chunk. */
  readonly includeUsage: boolean;
  /** Emit tool starts and ends as chunks with an `rxgate_tool` field. Default: false, tools are invisible. */
  readonly toolProgress?: boolean;
  /** The client's custom tools, whose calls are `custom` tool calls. Default: none. */
  readonly customTools?: ReadonlySet<string>;
}
