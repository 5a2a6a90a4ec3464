import { z } from 'zod';
import type { ChatMessage } from '../agent/agent.js';
import { assertObjectBody, invalidRequest } from '../errors/invalidRequest.js';
import { unsupportedParameter } from '../errors/unsupportedParameter.js';
import { parseInput, turnFields } from '../openai/parseInput.js';

const runRequestSchema = z.object({
  ...turnFields,
  conversation: z.string({ error: 'conversation must be a conversation id' }).min(1).max(256).nullable().optional(),
  truncation: z.enum(['auto', 'disabled'], { error: 'truncation must be "auto" or "disabled"' }).nullable().optional(),
});

export interface RunRequest {
  readonly model: string | undefined;
  /** `instructions`, as a system message. */
  readonly system: readonly ChatMessage[];
  readonly input: readonly ChatMessage[];
  /** The id of the conversation the run continues and is appended to. */
  readonly conversation: string | null;
  /** `truncation: "auto"`: the oldest items of the conversation are left out rather than the request refused. */
  readonly truncate: boolean;
  /** The scheduled job whose fire this run is; shown as the run's `job_id`. */
  readonly jobId?: string;
}

/** Checks a `POST /v1/runs` body: `input`, `instructions`, `conversation` and `truncation` as for the Responses API. */
export function parseRunRequest(body: unknown): RunRequest {
  assertObjectBody(body);
  const parsed = runRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidRequest(parsed.error, body);
  const { model, input, instructions, conversation, truncation } = parsed.data;
  if (truncation === 'auto' && !conversation) {
    throw unsupportedParameter('truncation', 'rxgate truncates only a conversation\'s items; send truncation: "auto" with conversation');
  }
  return {
    model,
    system: instructions ? [{ role: 'system', content: instructions }] : [],
    input: parseInput(input, body),
    conversation: conversation ?? null,
    truncate: truncation === 'auto',
  };
}
