import { toOpenAIError } from '../errors/toOpenAIError.js';

/** A response's `error` field: the code and message of the failure's OpenAI envelope. */
export function toResponseError(error: unknown): { readonly code: string; readonly message: string } {
  const { code, message } = toOpenAIError(error).body.error;
  return { code: code ?? 'server_error', message };
}
