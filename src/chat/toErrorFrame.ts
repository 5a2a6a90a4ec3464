import { toOpenAIError } from '../errors/toOpenAIError.js';
import { jsonFrame } from '../sse/jsonFrame.js';

/** The Chat Completions error frame of `error`: `data: {"error": {...}}`, which the OpenAI SDKs raise as `APIError`. */
export function toErrorFrame(error: unknown): string {
  return jsonFrame({ error: toOpenAIError(error).body.error });
}
