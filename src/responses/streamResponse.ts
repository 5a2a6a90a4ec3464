import { inFlightStreams } from '../metrics/inFlightStreams.js';
import type { Request, Response } from 'express';
import { AnswerLog } from '../detached/AnswerLog.js';
import { toLoggedEvent } from '../detached/loggedEvent.js';
import { startLifecycle } from '../serving/lifecycle.js';
import { localsOf, routeOf } from '../serving/requestLocals.js';
import type { Served } from '../serving/served.js';
import { serveSse } from '../serving/serveSse.js';
import { asyncScheduler } from 'rxjs';
import { instantiateOperators } from '../pipeline/protocolOperators.js';
import type { KeptResponse } from './keptResponse.js';
import { TERMINAL_RESPONSE_EVENTS, type ResponseStreamEvent } from '../openai/responseObject.js';
import { responseProtocol } from './responseProtocol.js';
import type { ResponsesContext } from './responsesContext.js';
import { saveOrLog } from './saveOrLog.js';
import type { ResponseTurn } from './responseTurn.js';

/**
 * Streams a response as typed SSE events while the client listens. It is stored before the first
 * byte (a store that fails is a 503 then), and its terminal event is sent once the settled
 * response is stored. A client that leaves interrupts the run (as for chat) and the stored
 * snapshot says `incomplete` with the text so far; a server-side end (shutdown) still sends a
 * `response.incomplete`.
 *
 * With `kept` (an `Idempotency-Key`), each event is also appended to the response's event log as
 * it is sent, where a duplicate request replays it from; one that ends before its terminal event
 * gets a `response.incomplete` there, and gives the key up.
 */
export async function streamResponse(
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
  const log = kept && new AnswerLog(context.store.events, draft.meta.id);
  const logEvent = (event: ResponseStreamEvent) => {
    const { seq, type, data } = toLoggedEvent(event, event.sequence_number);
    if (TERMINAL_RESPONSE_EVENTS.has(type)) log!.end({ seq, type, data });
    else log!.append(type, data, seq);
  };
  let settled = false;
  const protocol = responseProtocol(
    draft,
    async (response) => {
      settled = true;
      await save(response);
      // A client that read the terminal event and retries finds the whole stream to replay.
      await log?.stored();
    },
    log && logEvent,
  );
  try {
    const { events, chunks } = instantiateOperators(context.operators, {
      cancellation: lifecycle.cancellation,
      model: turn.agentRequest.model,
      scheduler: asyncScheduler,
    });
    return await serveSse(req, res, agent.run(turn.agentRequest, lifecycle.cancellation).pipe(lifecycle.record), protocol, {
      ...context,
      lifecycle,
      events,
      chunks,
    });
  } finally {
    lifecycle.finish();
    // A stream that ended before its terminal event leaves an `incomplete` snapshot.
    if (!settled) await save(draft.snapshot('incomplete', 'interrupted'));
    if (log && !log.whole) {
      await kept!.release().catch((error: unknown) => logger.error({ err: error }, 'the Idempotency-Key could not be given up'));
      // Its followers end where its client did.
      for (const event of draft.interrupted()) logEvent(event);
      await log.stored();
    }
  }
}
