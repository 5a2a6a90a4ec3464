import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../../src/errors/UpstreamError.js';
import { failureAction } from '../../../src/upstream/failureAction.js';

describe('failureAction', () => {
  it("reads Anthropic's 400 for a prompt too long as context_length_exceeded, and its 529 as a 5xx", () => {
    const tooLong = new UpstreamError('bad_status', 'answered HTTP 400: prompt is too long: 208310 tokens > 200000 maximum', 400);
    expect(failureAction(tooLong)).toBe('context_fallback');
    expect(failureAction(new UpstreamError('bad_status', 'answered HTTP 529: Overloaded', 529))).toBe('retry');
    expect(failureAction(new UpstreamError('bad_status', 'answered HTTP 400: messages: roles must alternate', 400))).toBe('give_up');
  });
});
