import type { UpstreamScript, UpstreamStep } from './scriptedUpstream.js';

/** One Messages SSE event: `event: <type>` and the same `type` in its data, as Anthropic streams them. */
export function messagesEvent(type: string, fields: Record<string, unknown> = {}): UpstreamStep {
  return { raw: `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n` };
}

/** Builders for the events of a Messages stream (an Anthropic-wire upstream's answer). */
export const events = {
  start: (inputTokens = 12, cacheRead = 0, cacheWrite = 0): UpstreamStep =>
    messagesEvent('message_start', {
      message: {
        id: 'msg_up',
        type: 'message',
        role: 'assistant',
        model: 'claude-up',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: inputTokens, cache_read_input_tokens: cacheRead, cache_creation_input_tokens: cacheWrite, output_tokens: 1 },
      },
    }),
  ping: (): UpstreamStep => messagesEvent('ping'),
  textStart: (index: number): UpstreamStep => messagesEvent('content_block_start', { index, content_block: { type: 'text', text: '' } }),
  text: (index: number, text: string): UpstreamStep => messagesEvent('content_block_delta', { index, delta: { type: 'text_delta', text } }),
  toolStart: (index: number, id: string, name: string): UpstreamStep =>
    messagesEvent('content_block_start', { index, content_block: { type: 'tool_use', id, name, input: {} } }),
  toolArguments: (index: number, partial_json: string): UpstreamStep =>
    messagesEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }),
  stop: (index: number): UpstreamStep => messagesEvent('content_block_stop', { index }),
  finish: (stopReason: string, outputTokens: number): UpstreamStep =>
    messagesEvent('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } }),
  end: (): UpstreamStep => messagesEvent('message_stop'),
};

/** A plain text answer in one text block, as Anthropic streams it. */
export function messagesAnswer(...texts: string[]): UpstreamScript {
  return {
    steps: [
      events.start(),
      events.ping(),
      events.textStart(0),
      ...texts.map((text) => events.text(0, text)),
      events.stop(0),
      events.finish('end_turn', texts.length),
      events.end(),
    ],
  };
}

/** An answer that calls one tool, its arguments in these fragments. */
export function messagesToolUse(id: string, name: string, ...fragments: string[]): UpstreamScript {
  return {
    steps: [
      events.start(),
      events.toolStart(0, id, name),
      ...fragments.map((fragment) => events.toolArguments(0, fragment)),
      events.stop(0),
      events.finish('tool_use', 9),
      events.end(),
    ],
  };
}

/** Anthropic's answer when it is overloaded: HTTP 529 with its error envelope. */
export const overloaded: UpstreamScript = {
  status: 529,
  headers: { 'content-type': 'application/json' },
  steps: [{ raw: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' }],
};
