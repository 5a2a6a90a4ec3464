/** Anthropic's stop reasons as chat finish reasons; one not listed (`pause_turn`) reads as `stop`. */
const FINISH_REASONS: Readonly<Record<string, string>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

/** A `message_delta`'s `stop_reason` as the `finish_reason` of a chat chunk. */
export const toFinishReason = (stopReason: string): string => FINISH_REASONS[stopReason] ?? 'stop';
