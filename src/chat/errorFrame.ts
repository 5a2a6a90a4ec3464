import { catchError, of, type MonoTypeOperatorFunction } from 'rxjs';
import { toOpenAIError } from '../errors/toOpenAIError.js';
import { serializeFrame } from '../sse/serializeFrame.js';

/**
 * Ends a failed stream the Chat Completions way: one `data: {"error": {...}}` frame, then a
 * clean completion (no `[DONE]` when `done()` sits before it). `onError` sees the failure.
 *
 * ```
 * source:   --a--#
 * result:   --a--(E|)     E = 'data: {"error":{"message",...}}\n\n'
 * ```
 */
export function errorFrame(onError?: (error: unknown) => void): MonoTypeOperatorFunction<string> {
  return catchError((error: unknown) => {
    onError?.(error);
    const { error: body } = toOpenAIError(error).body;
    return of(serializeFrame({ data: JSON.stringify({ error: body }) }));
  });
}
