import type { MonoTypeOperatorFunction, OperatorFunction } from 'rxjs';
import type { InterruptReason } from '../agent/interruptReason.js';

/** What a protocol (Chat Completions, the Responses API, run events) brings to the SSE pipeline. */
export interface SseProtocol<In, Out> {
  /** The source's values (agent events, logged events) as the protocol's messages. */
  readonly encode: OperatorFunction<In, Out>;
  /** One message's wire bytes. */
  readonly frame: (message: Out) => string;
  /** What closes the frames: Chat Completions' `[DONE]` after a clean end, its error frame after a failure. Default: nothing. */
  readonly end?: MonoTypeOperatorFunction<string>;
  /** Whether a message reports that the run failed (the Responses API's `response.failed`). Default: only an error does. */
  readonly isFailure?: (message: Out) => boolean;
  /** Shrinks what a slow client owes without losing content (merging text deltas). Default: it cannot. */
  readonly compact?: (frames: readonly string[]) => string[];
  /** The frame sent when the stream has been quiet for the keepalive interval. Default: an SSE comment (`KEEPALIVE_FRAME`). */
  readonly keepaliveFrame?: string;
  /** The last frame of a stream the server ended (stop, shutdown), written if the client is still there. Default: none. */
  readonly serverEnded?: (reason: InterruptReason) => string;
}
