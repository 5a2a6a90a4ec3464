import { z } from 'zod';
import type { ChatMessage } from '../../agent/agent.js';
import { assertObjectBody, invalidRequest } from '../invalidRequest.js';
import { inputField, parseInput } from '../responses/parseInput.js';

const runRequestSchema = z.object({
  model: z.string().min(1).max(256).optional(),
  input: inputField,
  instructions: z
    .string({ error: 'instructions must be a string' })
    .max(64 * 1024)
    .nullable()
    .optional(),
});

export interface RunRequest {
  readonly model: string | undefined;
  readonly messages: readonly ChatMessage[];
}

/** Checks a `POST /v1/runs` body: `input` and `instructions` as for the Responses API. */
export function parseRunRequest(body: unknown): RunRequest {
  assertObjectBody(body);
  const parsed = runRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidRequest(parsed.error, body);
  const { model, input, instructions } = parsed.data;
  const system: ChatMessage[] = instructions ? [{ role: 'system', content: instructions }] : [];
  return { model, messages: [...system, ...parseInput(input, body)] };
}
