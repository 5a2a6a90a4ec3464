import { endWith, type MonoTypeOperatorFunction } from 'rxjs';

export const DONE_FRAME = 'data: [DONE]\n\n';

/**
 * Appends the Chat Completions terminator, only after a clean completion: an error skips it.
 *
 * ```
 * source:   --a--|        --a--#
 * result:   --a--(D|)     --a--#
 * ```
 */
export function done(): MonoTypeOperatorFunction<string> {
  return endWith(DONE_FRAME);
}
