import { map, tap } from 'rxjs';
import { InterruptReason } from '../agent/interruptReason.js';
import type { DetachedRun } from '../detached/DetachedRuns.js';
import { toLoggedEvent } from '../detached/loggedEvent.js';
import { TERMINAL_RESPONSE_EVENTS, type ResponseObject } from './responseObject.js';
import type { ResponsesContext } from './responsesContext.js';
import type { ResponseTurn } from './responseTurn.js';
import { toResponseEvents } from './toResponseEvents.js';

/**
 * Runs a `background: true` response detached from the connection, logging its events for
 * `GET /v1/responses/{id}?stream=true`. A cancel leaves it `cancelled`, shutdown `incomplete`;
 * either way its stream still ends with a `response.incomplete` carrying the text so far.
 */
export function startBackgroundResponse(turn: ResponseTurn, { agent, detached }: ResponsesContext): DetachedRun<ResponseObject> {
  const { draft } = turn;
  return detached.start<ResponseObject>(draft.meta.id, {
    kind: 'response',
    events$: (lifecycle) => {
      turn.save(draft.snapshot('queued'));
      return agent.run(turn.agentRequest, lifecycle.cancellation).pipe(
        lifecycle.record,
        toResponseEvents(draft),
        tap((event) => {
          if (TERMINAL_RESPONSE_EVENTS.has(event.type)) turn.save(event.response as ResponseObject);
        }),
        map((event) => toLoggedEvent(event, event.sequence_number)),
      );
    },
    snapshot: () => draft.snapshot('in_progress'),
    onEnd: ({ reason }) => {
      if (reason === undefined) return [];
      const cancelled = reason === InterruptReason.stopRequested;
      const response = draft.snapshot(cancelled ? 'cancelled' : 'incomplete', cancelled ? 'cancelled' : 'interrupted');
      turn.save(response);
      const incomplete = draft.event('response.incomplete', { response });
      return [toLoggedEvent(incomplete, incomplete.sequence_number)];
    },
  });
}
