/** The Anthropic Messages wire vocabulary rxgate answers in: the `Message` object, its blocks and its stream events. */

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';

export interface MessageUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  /** Of the input, what the upstream read from its prompt cache; absent when it did not say. */
  readonly cache_read_input_tokens?: number;
}

export type ContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'thinking'; readonly thinking: string; readonly signature: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: unknown };

/** The non-streaming answer, and the `message` of `message_start` (with no content yet). */
export interface Message {
  readonly id: string;
  readonly type: 'message';
  readonly role: 'assistant';
  readonly model: string;
  readonly content: readonly ContentBlock[];
  readonly stop_reason: StopReason | null;
  readonly stop_sequence: string | null;
  readonly usage: MessageUsage;
}

export type BlockDelta =
  | { readonly type: 'text_delta'; readonly text: string }
  | { readonly type: 'thinking_delta'; readonly thinking: string }
  | { readonly type: 'signature_delta'; readonly signature: string }
  | { readonly type: 'input_json_delta'; readonly partial_json: string };

/** One event of a streaming answer; its frame is `event: <type>` with the event as data. */
export type MessageStreamEvent =
  | { readonly type: 'message_start'; readonly message: Message }
  | { readonly type: 'content_block_start'; readonly index: number; readonly content_block: ContentBlock }
  | { readonly type: 'content_block_delta'; readonly index: number; readonly delta: BlockDelta }
  | { readonly type: 'content_block_stop'; readonly index: number }
  | {
      readonly type: 'message_delta';
      readonly delta: { readonly stop_reason: StopReason; readonly stop_sequence: string | null };
      readonly usage: MessageUsage;
    }
  | { readonly type: 'message_stop' };

/** What every event of one answer shares, fixed when the request is read. */
export interface MessageMeta {
  /** `msg_…` */
  readonly id: string;
  /** The model the client asked for, as it asked. */
  readonly model: string;
  /** The request counted with rxgate's tokenizer, for `message_start` before the upstream has said anything. */
  readonly inputTokens: number;
}
