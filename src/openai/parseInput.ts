import { z } from 'zod';
import type { ChatMessage, ContentPart } from '../agent/agent.js';
import { RequestError } from '../errors/RequestError.js';
import { MAX_MESSAGES, MAX_PARTS, MAX_TEXT_CHARS } from './limits.js';
import { invalidRequest } from '../errors/invalidRequest.js';
import { assertUserInput } from './assertUserInput.js';

const text = z.string().max(MAX_TEXT_CHARS, `text longer than ${MAX_TEXT_CHARS} characters`);
const part = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.enum(['input_text', 'output_text']), text }),
    z.object({ type: z.literal('input_image'), image_url: text, detail: z.enum(['auto', 'low', 'high']).optional() }),
  ],
  { error: 'a content part must have type "input_text", "output_text" or "input_image"' },
);
const message = z.object({
  type: z.literal('message', { error: 'only message items are accepted' }).optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer'], { error: 'role must be user, assistant, system or developer' }),
  content: z.union([text, z.array(part).max(MAX_PARTS, `more than ${MAX_PARTS} content parts`)], {
    error: 'content must be a string or an array of content parts',
  }),
});
const items = z.array(message).min(1, 'input must not be empty').max(MAX_MESSAGES, `more than ${MAX_MESSAGES} input items`);

/** `input` as the request carries it: checked for its outer shape only, items one by one below. */
export const inputField = z.union([text, z.array(z.unknown())], { error: 'input must be a string or an array of input items' });

/** The fields every request that starts a turn from Responses-style input has: `POST /v1/responses` and `POST /v1/runs`. */
export const turnFields = {
  model: z.string().min(1).max(256).optional(),
  input: inputField,
  instructions: z
    .string({ error: 'instructions must be a string' })
    .max(64 * 1024)
    .nullable()
    .optional(),
};

type InputPart = z.output<typeof part>;

const toContentPart = (p: InputPart): ContentPart =>
  p.type === 'input_image'
    ? { type: 'image_url', image_url: { url: p.image_url, ...(p.detail ? { detail: p.detail } : {}) } }
    : { type: 'text', text: p.text };

/**
 * Responses-style `input` of messages only (a string, or messages with `input_text` parts) as chat
 * messages: what `POST /v1/runs` takes. `POST /v1/responses` takes more (`parseResponseInput`).
 */
export function parseInput(input: string | readonly unknown[], body: unknown): ChatMessage[] {
  if (typeof input === 'string') {
    if (input.trim() === '')
      throw new RequestError(400, "invalid 'input': input must not be empty", 'invalid_request_error', 'input', 'invalid_value');
    return [{ role: 'user', content: input }];
  }
  const parsed = items.safeParse(input);
  if (!parsed.success) throw invalidRequest(parsed.error, body, ['input']);
  const messages = parsed.data.map(({ role, content }): ChatMessage => {
    if (typeof content === 'string') return { role, content };
    const parts = content.map(toContentPart);
    // Assistant turns go upstream as plain text, which every upstream accepts.
    if (role === 'assistant') return { role, content: parts.map((p) => (p.type === 'text' ? p.text : '')).join('') };
    return { role, content: parts };
  });
  assertUserInput(messages);
  return messages;
}
