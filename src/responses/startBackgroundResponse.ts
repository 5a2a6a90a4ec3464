import { asyncScheduler, map, tap } from 'rxjs';
import { instantiateOperators } from '../pipeline/protocolOperators.js';
import { InterruptReason } from '../agent/interruptReason.js';
import type { DetachedRun } from '../detached/DetachedRuns.js';
import { toLoggedEvent } from '../detached/loggedEvent.js';
import { TERMINAL_RESPONSE_EVENTS, type ResponseObject, type ResponseStreamEvent } from '../openai/responseObject.js';
import type { ResponsesContext } from './responsesContext.js';
import type { ResponseTurn } from './responseTurn.js';
import { savedBeforeSent } from './savedBeforeSent.js';
import { toResponseEvents } from './toResponseEvents.js';

/**
 * Runs a `background: true` response detached from the connection, logging its events for
 * `GET /v1/responses/{id}?stream=true`. It is stored `queued` before the agent starts; its terminal
 * event is shown and logged once the settled response is stored (and the conversation it continues
 * appended to), as a foreground stream's is sent. A cancel leaves it `cancelled`, shutdown `incomplete`; either
 * way its stream still ends with a `response.incomplete` carrying the text so far. A store that
 * fails ends it `failed`. Rejects with `CapacityError` when the cap is reached, or with the store's
 * error when it refused to store the response `queued`.
 */
export async function startBackgroundResponse(
  turn: ResponseTurn,
  { agent, detached, operators }: ResponsesContext,
): Promise<DetachedRun<ResponseObject>> {
  const { draft } = turn;
  let settled: ResponseObject | undefined;
  // The terminal event while its response is stored (and its conversation appended): shown and logged only then.
  let held: ResponseStreamEvent | undefined;
  let saving: Promise<void> | undefined;
  const logged = (events: readonly ResponseStreamEvent[]) => events.map((event) => toLoggedEvent(event, event.sequence_number));
  const run = await detached.start<ResponseObject>(draft.meta.id, {
    kind: 'response',
    owner: turn.owner,
    saveStart: () => turn.save(draft.snapshot('queued')),
    events$: (lifecycle) => {
      const { events, chunks } = instantiateOperators(operators, {
        cancellation: lifecycle.cancellation,
        model: turn.agentRequest.model,
        scheduler: asyncScheduler,
      });
      return agent.run(turn.agentRequest, lifecycle.cancellation).pipe(
        lifecycle.record,
        events,
        toResponseEvents(draft),
        tap((event) => {
          if (TERMINAL_RESPONSE_EVENTS.has(event.type)) held = event;
        }),
        savedBeforeSent((response) => (saving = turn.save(response))),
        tap((event) => {
          if (TERMINAL_RESPONSE_EVENTS.has(event.type)) settled = event.response as ResponseObject;
        }),
        chunks,
        map((event) => toLoggedEvent(event, event.sequence_number)),
      );
    },
    snapshot: () => settled ?? draft.snapshot('in_progress'),
    saveFinal: () => {
      // Saved already, as its terminal event was held: saved again only if that failed (a retry of the final state).
      const first = saving;
      saving = undefined;
      return first ?? turn.save(settled ?? draft.snapshot('incomplete', 'interrupted'));
    },
    onEnd: ({ reason, error }) => {
      if (settled) return [];
      // Stopped while its settled response was being stored: that response is how it ended.
      if (held) {
        settled = held.response as ResponseObject;
        return logged([held]);
      }
      if (reason === undefined || error !== undefined) {
        const [failed] = draft.fail(error ?? new Error('the response ended without an outcome'));
        settled = failed!.response as ResponseObject;
        return logged([failed!]);
      }
      const cancelled = reason === InterruptReason.stopRequested;
      settled = draft.snapshot(cancelled ? 'cancelled' : 'incomplete', cancelled ? 'cancelled' : 'interrupted');
      return logged([draft.event('response.incomplete', { response: settled })]);
    },
  });
  // A response the store refused is the caller's 503, not an id nobody can retrieve.
  await run.started;
  return run;
}
