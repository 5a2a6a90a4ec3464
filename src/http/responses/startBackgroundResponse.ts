import { map, tap } from 'rxjs';
import { recordRunMetrics } from '../../metrics/recordRunMetrics.js';
import { InterruptReason } from '../../agent/interruptReason.js';
import type { DetachedRun } from '../../detached/DetachedRuns.js';
import { TERMINAL_RESPONSE_EVENTS, type ResponseObject } from '../../protocol/responses/responseObject.js';
import { toResponseEvents } from '../../protocol/responses/toResponseEvents.js';
import { toLoggedEvent } from '../../store/loggedEvent.js';
import type { ResponsesContext } from './responsesContext.js';
import type { ResponseTurn } from './responseTurn.js';

/**
 * Runs a `background: true` response detached from the connection, logging its events for
 * `GET /v1/responses/{id}?stream=true`. A cancel leaves it `cancelled`, shutdown `incomplete`;
 * either way its stream still ends with a `response.incomplete` carrying the text so far.
 */
export function startBackgroundResponse(turn: ResponseTurn, context: ResponsesContext): DetachedRun {
  const { agent, detached, liveDrafts } = context;
  const { draft } = turn;
  const { id } = draft.meta;
  detached.assertCapacity();
  turn.save(draft.snapshot('queued'));
  liveDrafts.set(id, draft);
  return detached.start(
    id,
    (cancellation) =>
      agent.run(turn.agentRequest, cancellation).pipe(
        recordRunMetrics(context.metrics),
        toResponseEvents(draft.meta, draft),
        tap((event) => {
          if (TERMINAL_RESPONSE_EVENTS.has(event.type)) turn.save(event.response as ResponseObject);
        }),
        map((event) => toLoggedEvent(event, event.sequence_number)),
      ),
    ({ reason }) => {
      liveDrafts.delete(id);
      if (reason === undefined) return [];
      const cancelled = reason === InterruptReason.stopRequested;
      const response = draft.snapshot(cancelled ? 'cancelled' : 'incomplete', cancelled ? 'cancelled' : 'interrupted');
      turn.save(response);
      const incomplete = draft.event('response.incomplete', { response });
      return [toLoggedEvent(incomplete, incomplete.sequence_number)];
    },
  );
}
