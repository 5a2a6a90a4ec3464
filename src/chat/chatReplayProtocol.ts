import type { SseProtocol } from '../pipeline/sseProtocol.js';
import { idempotencyKeyInUse } from '../serving/readIdempotencyKey.js';
import type { LoggedEvent } from '../store/EventLog.js';
import { compactChatFrames } from './compactChatFrames.js';
import { replayChatFrames } from './replayChatFrames.js';
import { toErrorFrame } from './toErrorFrame.js';

/** What a replay of an answer that never came to an end ends with: the SDKs raise it, and a retry with the key runs the request again. */
const UNFINISHED = toErrorFrame(idempotencyKeyInUse('ended before its answer did (its client left, or its server stopped)'));

/** The start of an error frame, the only frames of a chat stream that begin with `{"error"`. */
const ERROR_FRAME = 'data: {"error"';

/**
 * A streaming chat completion's log replayed on the SSE pipeline (a duplicate under an
 * `Idempotency-Key`): the frames byte for byte as the first request sent them, text deltas merged
 * for a slow client as for the first; an answer that never came to an end ends with an error frame.
 */
export const chatReplayProtocol: SseProtocol<LoggedEvent, LoggedEvent> = {
  encode: replayChatFrames(UNFINISHED),
  frame: ({ data }) => data,
  compact: compactChatFrames,
  isFailure: ({ data }) => data.startsWith(ERROR_FRAME),
};
