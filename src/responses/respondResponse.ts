import { inFlightStreams } from '../metrics/inFlightStreams.js';
import type { Request, Response } from 'express';
import { asyncScheduler, concatMap, filter } from 'rxjs';
import { applyOperators } from '../pipeline/applyOperators.js';
import { AnswerLog } from '../detached/AnswerLog.js';
import type { JsonAnswer } from '../serving/jsonAnswer.js';
import { startLifecycle } from '../serving/lifecycle.js';
import { localsOf, routeOf } from '../serving/requestLocals.js';
import type { Served } from '../serving/served.js';
import { serveJson } from '../serving/serveJson.js';
import { TERMINAL_RESPONSE_EVENTS, type ResponseObject } from '../openai/responseObject.js';
import { HTTP_ANSWER_EVENT, type KeptResponse } from './keptResponse.js';
import type { ResponsesContext } from './responsesContext.js';
import { saveOrLog } from './saveOrLog.js';
import type { ResponseTurn } from './responseTurn.js';
import { toResponseEvents } from './toResponseEvents.js';

/**
 * Answers with the whole `response` object once the run ends and it is stored; a failed run is
 * the HTTP error its failure maps to (the SDKs raise it), stored as `failed`. It is stored
 * `in_progress` before the run starts (a store that fails is a 503 then). A client that leaves
 * while it waits interrupts the run and leaves an `incomplete` snapshot.
 *
 * With `kept` (an `Idempotency-Key`), an HTTP error is written to the response's event log before
 * it is sent, so that a replay answers the same; a client that leaves gives the key up.
 */
export async function respondResponse(
  req: Request,
  res: Response,
  turn: ResponseTurn,
  context: ResponsesContext,
  kept?: KeptResponse,
): Promise<Served> {
  const { agent, metrics, activeRuns, maxOutputChars } = context;
  const { draft } = turn;
  const { logger } = localsOf(res);
  await turn.save(draft.snapshot('in_progress'));
  const save = saveOrLog(turn, logger);
  const lifecycle = startLifecycle({
    metrics,
    inFlight: inFlightStreams(metrics, routeOf(req)),
    activeRuns,
    maxOutputChars,
    key: turn.owner,
  });
  let settled = false;
  // As for a chat completion answered whole, the event operators apply; the stream's event operators have no stream to see.
  const events = applyOperators(context.operators.events, {
    cancellation: lifecycle.cancellation,
    model: turn.agentRequest.model,
    scheduler: asyncScheduler,
  });
  const answer$ = agent.run(turn.agentRequest, lifecycle.cancellation).pipe(
    lifecycle.record,
    events,
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
  const beforeAnswer = kept
    ? async (answer: JsonAnswer) => {
        if (answer.status < 400) return;
        const log = new AnswerLog(context.store.events, draft.meta.id);
        log.end({ type: HTTP_ANSWER_EVENT, data: JSON.stringify(answer) });
        await log.stored();
      }
    : undefined;
  try {
    return await serveJson(res, answer$, { lifecycle, metrics, logger, beforeAnswer });
  } finally {
    lifecycle.finish();
    if (!settled) {
      await save(draft.snapshot('incomplete', 'interrupted'));
      await kept?.release().catch((error: unknown) => logger.error({ err: error }, 'the Idempotency-Key could not be given up'));
    }
  }
}
