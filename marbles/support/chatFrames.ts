import type { AgentEvent } from '../../src/agent/agentEvent.js';
import type { ChatDelta } from '../../src/chat/chatCompletionChunk.js';
import { TEST_META } from '../../src/testing.js';
import { serializeFrame } from '../../src/sse/serializeFrame.js';

export const META = TEST_META;

/** The exact frame of one chunk, written out by hand so the encoder is checked, not mirrored. */
export function chunkFrame(delta: ChatDelta, finishReason: string | null = null): string {
  const chunk = {
    id: META.id,
    object: 'chat.completion.chunk',
    created: META.created,
    model: META.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
  return serializeFrame({ data: JSON.stringify(chunk) });
}

export const text = (delta: string): AgentEvent => ({ type: 'text', delta });

/** Agent events a..e are the text deltas "a".."e"; f is a stop finish. */
export const EVENTS = {
  a: text('a'),
  b: text('b'),
  c: text('c'),
  d: text('d'),
  e: text('e'),
  f: { type: 'finish', reason: 'stop' },
} satisfies Record<string, AgentEvent>;

/** R is the role chunk, A..E the text chunks, F the stop chunk, D the terminator, K a keepalive. */
export const FRAMES = {
  R: chunkFrame({ role: 'assistant' }),
  A: chunkFrame({ content: 'a' }),
  B: chunkFrame({ content: 'b' }),
  C: chunkFrame({ content: 'c' }),
  D: 'data: [DONE]\n\n',
  E: chunkFrame({ content: 'e' }),
  F: chunkFrame({}, 'stop'),
  K: ': keepalive\n\n',
} satisfies Record<string, string>;
