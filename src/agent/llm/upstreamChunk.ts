/** One tool-call fragment of a streamed delta; the first fragment of a call carries its id and name. */
export interface UpstreamToolCallDelta {
  readonly index?: number;
  readonly id?: string;
  readonly type?: 'function';
  readonly function?: { readonly name?: string; readonly arguments?: string };
}

/** A `chat.completion.chunk` as OpenAI-compatible upstreams stream it, typed as loosely as they send it. */
export interface UpstreamChunk {
  readonly choices?: readonly {
    readonly delta?: {
      readonly content?: string | null;
      /** DeepSeek, vLLM and llama.cpp name it `reasoning_content`; OpenRouter and Ollama `reasoning`. */
      readonly reasoning_content?: string | null;
      readonly reasoning?: string | null;
      readonly tool_calls?: readonly UpstreamToolCallDelta[] | null;
    };
    readonly finish_reason?: string | null;
  }[];
  readonly usage?: { readonly prompt_tokens?: number; readonly completion_tokens?: number; readonly total_tokens?: number } | null;
}
