import { identity, tap } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { SseProtocol } from '../pipeline/sseProtocol.js';
import type { ResponseDraft } from './ResponseDraft.js';
import { responseFrame } from './responseFrame.js';
import type { ResponseObject, ResponseStreamEvent } from '../openai/responseObject.js';
import { savedBeforeSent } from './savedBeforeSent.js';
import { toResponseEvents } from './toResponseEvents.js';

/**
 * The Responses API on the SSE pipeline: typed events from `response.created` to one terminal
 * event, sent once `onSettled` has stored its response. A stream the server ended (stop,
 * shutdown) still closes its open items and ends with a `response.incomplete` carrying the text so far. With `logged`, each
 * event is handed to it first, before the terminal one waits for `onSettled`. `frame` is an
 * event's wire bytes: an SSE event (`responseFrame`), or a WebSocket message (`socketFrame`).
 */
export function responseProtocol(
  draft: ResponseDraft,
  onSettled: (response: ResponseObject) => Promise<void>,
  logged?: (event: ResponseStreamEvent) => void,
  frame: (event: ResponseStreamEvent) => string = responseFrame,
): SseProtocol<AgentEvent, ResponseStreamEvent> {
  const protocol: SseProtocol<AgentEvent, ResponseStreamEvent> = {
    encode: (events$) => events$.pipe(toResponseEvents(draft), logged ? tap(logged) : identity, savedBeforeSent(onSettled)),
    frame,
    isFailure: (event) => event.type === 'response.failed',
    serverEnded: () => draft.interrupted().map(frame).join(''),
  };
  return protocol;
}
