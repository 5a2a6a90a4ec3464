import type { Observable } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import { done } from '../sse/done.js';
import { errorFrame } from '../sse/errorFrame.js';
import { sseFrames } from '../sse/sseFrames.js';
import type { ChatCompletionMeta } from './chatCompletionChunk.js';
import { toChatChunks } from './toChatChunks.js';

/**
 * A run as Chat Completions SSE frames: chunks, `[DONE]` after a clean end, or one error frame
 * (and no `[DONE]`) after a failure. `onError` learns of the failure the frame reports.
 *
 * ```
 * run$:     --t--f--|          --t--#
 * result:   R-T--F--(D|)       R-T--(E|)
 * ```
 */
export function chatCompletionFrames(
  run$: Observable<AgentEvent>,
  meta: ChatCompletionMeta,
  onError?: (error: unknown) => void,
): Observable<string> {
  return run$.pipe(toChatChunks(meta), sseFrames(), done(), errorFrame(onError));
}
