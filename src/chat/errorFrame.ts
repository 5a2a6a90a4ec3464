import { catchError, of, type MonoTypeOperatorFunction } from 'rxjs';
import { toErrorFrame } from './toErrorFrame.js';

/**
 * Ends a failed stream the Chat Completions way: one `data: {"error": {...}}` frame, then a
 * clean completion (no `[DONE]` when `done()` sits before it).
 *
 * ```
 * source:   --a--#
 * result:   --a--(E|)     E = 'data: {"error":{"message",...}}\n\n'
 * ```
 */
export function errorFrame(): MonoTypeOperatorFunction<string> {
  return catchError((error: unknown) => of(toErrorFrame(error)));
}
