import type { Request, Response } from 'express';
import { filter, map } from 'rxjs';
import { startLifecycle } from '../pipeline/lifecycle.js';
import { localsOf, routeOf } from '../pipeline/requestLocals.js';
import type { Served } from '../pipeline/served.js';
import { serveJson } from '../pipeline/serveJson.js';
import { TERMINAL_RESPONSE_EVENTS, type ResponseObject } from './responseObject.js';
import type { ResponsesContext } from './responsesContext.js';
import type { ResponseTurn } from './responseTurn.js';
import { toResponseEvents } from './toResponseEvents.js';

/**
 * Answers with the whole `response` object once the run ends; a failed run is the HTTP error its
 * failure maps to (the SDKs raise it), stored as `failed`. A client that leaves while it waits
 * interrupts the run and leaves an `incomplete` snapshot.
 */
export async function respondResponse(req: Request, res: Response, turn: ResponseTurn, context: ResponsesContext): Promise<Served> {
  const { agent, metrics, activeRuns, maxOutputChars } = context;
  const { draft } = turn;
  const lifecycle = startLifecycle({ metrics, inFlight: metrics.inFlightStreams.labels(routeOf(req)), activeRuns, maxOutputChars });
  let settled = false;
  turn.save(draft.snapshot('in_progress'));
  const answer$ = agent.run(turn.agentRequest, lifecycle.cancellation).pipe(
    lifecycle.record,
    toResponseEvents(draft),
    filter((event) => TERMINAL_RESPONSE_EVENTS.has(event.type)),
    map((event) => {
      settled = true;
      const response = event.response as ResponseObject;
      turn.save(response);
      if (event.type === 'response.failed') throw draft.failure;
      return response;
    }),
  );
  try {
    return await serveJson(res, answer$, { lifecycle, metrics, logger: localsOf(res).logger });
  } finally {
    if (!settled) turn.save(draft.snapshot('incomplete', 'interrupted'));
    lifecycle.finish();
  }
}
