import { inFlightStreams } from '../metrics/inFlightStreams.js';
import type { Request, Response } from 'express';
import { concatMap, filter } from 'rxjs';
import { startLifecycle } from '../pipeline/lifecycle.js';
import { localsOf, routeOf } from '../pipeline/requestLocals.js';
import type { Served } from '../pipeline/served.js';
import { serveJson } from '../pipeline/serveJson.js';
import { TERMINAL_RESPONSE_EVENTS, type ResponseObject } from './responseObject.js';
import type { ResponsesContext } from './responsesContext.js';
import type { ResponseTurn } from './responseTurn.js';
import { toResponseEvents } from './toResponseEvents.js';

/**
 * Answers with the whole `response` object once the run ends and it is stored; a failed run is
 * the HTTP error its failure maps to (the SDKs raise it), stored as `failed`. It is stored
 * `in_progress` before the run starts (a store that fails is a 503 then). A client that leaves
 * while it waits interrupts the run and leaves an `incomplete` snapshot.
 */
export async function respondResponse(req: Request, res: Response, turn: ResponseTurn, context: ResponsesContext): Promise<Served> {
  const { agent, metrics, activeRuns, maxOutputChars } = context;
  const { draft } = turn;
  const { logger } = localsOf(res);
  await turn.save(draft.snapshot('in_progress'));
  const save = (response: ResponseObject) =>
    turn.save(response).catch((error: unknown) => logger.error({ err: error }, 'the response was answered but could not be stored'));
  const lifecycle = startLifecycle({ metrics, inFlight: inFlightStreams(metrics, routeOf(req)), activeRuns, maxOutputChars });
  let settled = false;
  const answer$ = agent.run(turn.agentRequest, lifecycle.cancellation).pipe(
    lifecycle.record,
    toResponseEvents(draft),
    filter((event) => TERMINAL_RESPONSE_EVENTS.has(event.type)),
    concatMap(async (event) => {
      settled = true;
      const response = event.response as ResponseObject;
      await save(response);
      if (event.type === 'response.failed') throw draft.failure;
      return response;
    }),
  );
  try {
    return await serveJson(res, answer$, { lifecycle, metrics, logger });
  } finally {
    lifecycle.finish();
    if (!settled) await save(draft.snapshot('incomplete', 'interrupted'));
  }
}
