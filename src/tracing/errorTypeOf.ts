import { toOpenAIError } from '../errors/toOpenAIError.js';

/** A failure's `error.type`: the same code its error frame carries, else the error's class name. */
export function errorTypeOf(error: unknown): string {
  return toOpenAIError(error).body.error.code ?? (error instanceof Error ? error.name : '_OTHER');
}
