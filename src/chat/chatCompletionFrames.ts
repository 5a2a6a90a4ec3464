import type { MonoTypeOperatorFunction, Observable } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import { composeOperators } from '../pipeline/composeOperators.js';
import { done } from './done.js';
import { errorFrame } from './errorFrame.js';
import { sseFrames } from '../sse/sseFrames.js';
import type { ChatCompletionChunk, ChatCompletionMeta } from './chatCompletionChunk.js';
import { toChatChunks } from './toChatChunks.js';

/** Operators already instantiated for one response, applied in order. */
export interface ChatCompletionOperators {
  /** Between the run and the encoder. */
  readonly events?: readonly MonoTypeOperatorFunction<AgentEvent>[];
  /** Between the encoder and serialisation. */
  readonly chunks?: readonly MonoTypeOperatorFunction<ChatCompletionChunk>[];
}

/**
 * A run as Chat Completions SSE frames: chunks, `[DONE]` after a clean end, or one error frame
 * (and no `[DONE]`) after a failure. `onError` learns of the failure the frame reports. User
 * `operators` run on the events before the encoder and on the chunks after it.
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
  operators: ChatCompletionOperators = {},
): Observable<string> {
  return run$.pipe(
    composeOperators(operators.events),
    toChatChunks(meta),
    composeOperators(operators.chunks),
    sseFrames(),
    done(),
    errorFrame(onError),
  );
}
