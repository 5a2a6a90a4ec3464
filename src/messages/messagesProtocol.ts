import type { AgentEvent } from '../agent/agentEvent.js';
import { InterruptedError } from '../errors/InterruptedError.js';
import type { SseProtocol } from '../pipeline/sseProtocol.js';
import { outcomeOfInterrupt } from '../serving/served.js';
import { endStream } from '../sse/endStream.js';
import { serializeFrame } from '../sse/serializeFrame.js';
import type { MessageMeta, MessageStreamEvent } from './messageObjects.js';
import { messageErrorFrame } from './messageErrorFrame.js';
import { messageFrame } from './messageFrame.js';
import { toMessageEvents } from './toMessageEvents.js';

/** Anthropic's keepalive, which its SDKs read and skip. */
export const PING_FRAME = serializeFrame({ event: 'ping', data: '{"type":"ping"}' });

/**
 * The Anthropic Messages API on the SSE pipeline: `message_start` at once, the blocks, then
 * `message_delta` and `message_stop`; after a failure one `error` event and nothing after it;
 * keepalives as `ping` events; a stream the server ended (stop, shutdown) ends with an `error`
 * event, so that the SDKs raise instead of taking a cut-off answer.
 *
 * ```
 * run$:     --t-----f-|          --t-----#
 * result:   S-(BT)--E-(DX|)      S-(BT)--(R|)
 * ```
 *
 * S = `message_start`, B/T/E = a block's start, text and stop, D = `message_delta`, X = `message_stop`, R = `error`.
 */
export function messagesProtocol(meta: MessageMeta): SseProtocol<AgentEvent, MessageStreamEvent> {
  return {
    encode: toMessageEvents(meta),
    frame: messageFrame,
    // A clean end adds nothing: its `message_stop` is the encoder's.
    end: endStream(messageErrorFrame),
    keepaliveFrame: PING_FRAME,
    serverEnded: (reason) => messageErrorFrame(new InterruptedError(reason, outcomeOfInterrupt(reason))),
  };
}
