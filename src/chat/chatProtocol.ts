import type { AgentEvent } from '../agent/agentEvent.js';
import { InterruptedError } from '../errors/InterruptedError.js';
import { outcomeOfInterrupt } from '../serving/served.js';
import type { SseProtocol } from '../pipeline/sseProtocol.js';
import { chatChunkFrame } from './chatChunkFrame.js';
import type { ChatCompletionChunk, ChatCompletionMeta } from './chatCompletionChunk.js';
import { compactChatFrames } from './compactChatFrames.js';
import { endChatStream } from './endChatStream.js';
import { toChatChunks } from './toChatChunks.js';
import { toErrorFrame } from './toErrorFrame.js';

/**
 * Chat Completions on the SSE pipeline: chunks, `[DONE]` after a clean end, or one error frame
 * (and no `[DONE]`) after a failure; a slow client's text deltas merge; a stream the server ended
 * (stop, shutdown) ends with an error frame, so that SDKs raise instead of taking a cut-off answer.
 *
 * ```
 * run$:     --t--f--|          --t--#
 * result:   R-T--F--(D|)       R-T--(E|)
 * ```
 */
export function chatProtocol(meta: ChatCompletionMeta): SseProtocol<AgentEvent, ChatCompletionChunk> {
  const protocol: SseProtocol<AgentEvent, ChatCompletionChunk> = {
    encode: toChatChunks(meta),
    frame: chatChunkFrame(meta),
    end: endChatStream(),
    compact: compactChatFrames,
    serverEnded: (reason) => toErrorFrame(new InterruptedError(reason, outcomeOfInterrupt(reason))),
  };
  return protocol;
}
