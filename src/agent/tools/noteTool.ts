import { z } from 'zod';
import { defineTool } from './tool.js';

const MAX_NOTE_CHARS = 2_000;

/**
 * A harmless tool to try approvals with (`RXGATE_TOOLS=...,note RXGATE_REQUIRE_APPROVAL=note`): it
 * "takes a note" and says what it noted. It keeps nothing, so approving it by hand costs nothing.
 */
export const noteTool = defineTool({
  name: 'note',
  description: 'Takes a note of a short text for the user. Returns what was noted.',
  parameters: z.object({ text: z.string().min(1).max(MAX_NOTE_CHARS).describe('The text to note') }),
  run: async ({ text }) => `Noted: ${text}`,
});
