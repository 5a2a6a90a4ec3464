import { z } from 'zod';
import { MAX_TEXT_CHARS } from '../openai/limits.js';
import { assertObjectBody, invalidRequest } from '../errors/invalidRequest.js';

const steerRequestSchema = z.object({
  input: z
    .string({ error: 'input must be a string' })
    .max(MAX_TEXT_CHARS, `input longer than ${MAX_TEXT_CHARS} characters`)
    .refine((input) => input.trim() !== '', 'input must not be empty'),
});

/** Checks a `POST /v1/runs/{id}/steer` body and returns its `input`. */
export function parseSteerRequest(body: unknown): string {
  assertObjectBody(body);
  const parsed = steerRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidRequest(parsed.error, body);
  return parsed.data.input;
}
