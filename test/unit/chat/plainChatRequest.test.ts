import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatCompletionRequestSchema } from '../../../src/chat/chatCompletionRequest.js';
import { MAX_MESSAGES, MAX_TEXT_CHARS } from '../../../src/openai/limits.js';
import { readPlainChatRequest } from '../../../src/chat/readPlainChatRequest.js';

const LIMITS = { maxTextChars: MAX_TEXT_CHARS, maxMessages: MAX_MESSAGES };

const plainMessage = fc.record({
  role: fc.constantFrom('system', 'developer', 'user', 'assistant'),
  content: fc.string({ maxLength: 8 }),
});

/** Plain bodies, of every optional field present or not. */
const plain = fc.record(
  {
    model: fc.string({ minLength: 1, maxLength: 8 }),
    stream: fc.oneof(fc.boolean(), fc.constant(null)),
    stream_options: fc.oneof(
      fc.constant(null),
      fc.record({ include_usage: fc.boolean(), include_tool_progress: fc.boolean(), extra: fc.string() }, { requiredKeys: [] }),
    ),
    messages: fc.array(plainMessage, { minLength: 1, maxLength: 4 }),
  },
  { requiredKeys: ['messages'] },
);

/** A plain body with one thing changed: a wrong role, type or length, or a field the plain shape does not have. */
const nearlyPlain = fc.tuple(plain, fc.nat(7)).map(([valid, change]): Record<string, unknown> => {
  const [first, ...rest] = valid.messages;
  const messages = (message: Record<string, unknown>) => ({ ...valid, messages: [{ ...first, ...message }, ...rest] });
  return [
    () => ({ ...valid, model: '' }),
    () => ({ ...valid, model: 'x'.repeat(257) }),
    () => ({ ...valid, stream: 'yes' }),
    () => ({ ...valid, stream_options: { include_usage: 1 } }),
    () => ({ ...valid, temperature: 0.5 }),
    () => messages({ role: 'tool' }),
    () => messages({ content: 'y'.repeat(MAX_TEXT_CHARS + 1) }),
    () => messages({ name: 'ann' }),
  ][change]!();
});

describe('readPlainChatRequest, the hand check of the common chat request', () => {
  it('reads exactly what the schema reads, for every body it takes; anything else is left to the schema', () => {
    let taken = 0;
    fc.assert(
      fc.property(fc.oneof(plain, nearlyPlain), (candidate: Record<string, unknown>) => {
        const plain = readPlainChatRequest(candidate, LIMITS);
        if (plain === undefined) return;
        taken++;
        const parsed = chatCompletionRequestSchema.safeParse(candidate);
        expect(parsed.success).toBe(true);
        expect(plain).toEqual(parsed.data);
      }),
      { numRuns: 2_000, seed: 16 },
    );
    // The property says something only if the hand check took a good share of the bodies.
    expect(taken).toBeGreaterThan(500);
  });
});
