import { z } from 'zod';
import type { ChatMessage } from '../agent/agent.js';
import { assertObjectBody, invalidRequest } from '../errors/invalidRequest.js';
import { parseInput, turnFields } from '../responses/parseInput.js';

const runRequestSchema = z.object({
  ...turnFields,
});

export interface RunRequest {
  readonly model: string | undefined;
  readonly messages: readonly ChatMessage[];
  /** The scheduled job whose fire this run is; shown as the run's `job_id`. */
  readonly jobId?: string;
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
