import { toOpenAIError } from '../errors/toOpenAIError.js';
import type { RunError } from './runEvent.js';

/** A run's `error` field: the OpenAI envelope of the failure, without `param`. */
export function toRunError(error: unknown): RunError {
  const { message, type, code } = toOpenAIError(error).body.error;
  return { message, type, code };
}
