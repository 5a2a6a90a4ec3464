import { z } from 'zod';
import type { ChatMessage } from '../../agent/agent.js';
import { RequestError } from '../../errors/RequestError.js';
import { assertObjectBody, invalidRequest } from '../invalidRequest.js';
import { inputField, parseInput } from './parseInput.js';

const flag = (name: string) =>
  z
    .boolean({ error: `${name} must be a boolean` })
    .nullable()
    .optional();

const responseRequestSchema = z.object({
  model: z.string().min(1).max(256).optional(),
  input: inputField,
  instructions: z
    .string({ error: 'instructions must be a string' })
    .max(64 * 1024)
    .nullable()
    .optional(),
  previous_response_id: z.string({ error: 'previous_response_id must be a string' }).min(1).max(256).nullable().optional(),
  store: flag('store'),
  stream: flag('stream'),
  background: flag('background'),
});

export interface ResponseRequest {
  readonly model: string | undefined;
  /** This turn's input, as chat messages. */
  readonly input: readonly ChatMessage[];
  readonly instructions: string | null;
  readonly previousResponseId: string | null;
  readonly store: boolean;
  readonly stream: boolean;
  readonly background: boolean;
}

/** Checks a `POST /v1/responses` body; anything wrong is a 400 naming the offending param. */
export function parseResponseRequest(body: unknown): ResponseRequest {
  assertObjectBody(body);
  const parsed = responseRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidRequest(parsed.error, body);
  const { model, input, instructions, previous_response_id, store, stream, background } = parsed.data;
  const request = {
    model,
    input: parseInput(input, body),
    instructions: instructions ?? null,
    previousResponseId: previous_response_id ?? null,
    store: store ?? true,
    stream: stream ?? false,
    background: background ?? false,
  };
  if (request.background && !request.store) {
    throw new RequestError(
      400,
      "invalid 'background': a background response must be stored; drop store: false",
      'invalid_request_error',
      'background',
      'invalid_value',
    );
  }
  return request;
}
