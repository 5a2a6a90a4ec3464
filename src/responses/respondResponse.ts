import type { Response } from 'express';
import { recordRunMetrics } from '../pipeline/recordRunMetrics.js';
import { filter, takeUntil } from 'rxjs';
import { Cancellation } from '../agent/cancellation.js';
import { RequestError } from '../errors/RequestError.js';
import { TERMINAL_RESPONSE_EVENTS, type ResponseObject } from './responseObject.js';
import { toResponseEvents } from './toResponseEvents.js';
import { localsOf } from '../http/requestContext.js';
import { responseEnd$ } from '../http/responseEnd.js';
import { sendError } from '../http/sendError.js';
import type { ResponsesContext } from './responsesContext.js';
import type { ResponseTurn } from './responseTurn.js';

/**
 * Answers with the whole `response` object once the run ends; a failed run is the HTTP error its
 * failure maps to (the SDKs raise it), stored as `failed`. A client that leaves while it waits
 * interrupts the run and leaves an `incomplete` snapshot.
 */
export function respondResponse(res: Response, turn: ResponseTurn, context: ResponsesContext): Promise<void> {
  const { agent, activeRuns, metrics } = context;
  const { draft } = turn;
  const locals = localsOf(res);
  const cancellation = new Cancellation();
  const { stop$, finish } = activeRuns.add(cancellation);
  turn.save(draft.snapshot('in_progress'));
  let answered = false;
  return new Promise<void>((resolve) => {
    agent
      .run(turn.agentRequest, cancellation)
      .pipe(
        recordRunMetrics(metrics, (usage) => (locals.usage = usage)),
        toResponseEvents(draft.meta, draft),
        filter((event) => TERMINAL_RESPONSE_EVENTS.has(event.type)),
        takeUntil(responseEnd$(res, stop$, cancellation, metrics)),
      )
      .subscribe({
        next: (event) => {
          answered = true;
          const response = event.response as ResponseObject;
          turn.save(response);
          if (event.type === 'response.failed') {
            locals.outcome = 'error';
            sendError(res, draft.failure);
          } else {
            locals.outcome = 'completed';
            res.json(response);
          }
        },
        complete: () => {
          if (!answered) {
            turn.save(draft.snapshot('incomplete', 'interrupted'));
            if (!res.destroyed) sendError(res, new RequestError(503, cancellation.reason, 'server_error', null, locals.outcome ?? null));
          }
          finish();
          resolve();
        },
      });
  });
}
