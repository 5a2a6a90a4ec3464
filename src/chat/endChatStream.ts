import type { MonoTypeOperatorFunction } from 'rxjs';
import { endStream } from '../sse/endStream.js';
import { DONE_FRAME } from './done.js';
import { toErrorFrame } from './toErrorFrame.js';

/**
 * Ends a chat stream: `[DONE]` after a clean completion; after a failure, one error frame and a
 * clean completion, and no `[DONE]`.
 *
 * ```
 * source:   --a--|        --a--#
 * result:   --a--(D|)     --a--(E|)
 * ```
 */
export function endChatStream(): MonoTypeOperatorFunction<string> {
  return endStream(toErrorFrame, DONE_FRAME);
}
