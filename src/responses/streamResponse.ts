import { inFlightStreams } from '../metrics/inFlightStreams.js';
import type { Request, Response } from 'express';
import { startLifecycle } from '../pipeline/lifecycle.js';
import { localsOf, routeOf } from '../pipeline/requestLocals.js';
import type { Served } from '../pipeline/served.js';
import { serveSse } from '../pipeline/serveSse.js';
import type { ResponseObject } from './responseObject.js';
import { responseProtocol } from './responseProtocol.js';
import type { ResponsesContext } from './responsesContext.js';
import type { ResponseTurn } from './responseTurn.js';

/**
 * Streams a response as typed SSE events while the client listens. It is stored before the first
 * byte (a store that fails is a 503 then), and its terminal event is sent once the settled
 * response is stored. A client that leaves interrupts the run (as for chat) and the stored
 * snapshot says `incomplete` with the text so far; a server-side end (shutdown) still sends a
 * `response.incomplete`.
 */
export async function streamResponse(req: Request, res: Response, turn: ResponseTurn, context: ResponsesContext): Promise<Served> {
  const { agent, metrics, activeRuns, maxOutputChars } = context;
  const { draft } = turn;
  const { logger } = localsOf(res);
  await turn.save(draft.snapshot('in_progress'));
  const save = (response: ResponseObject) =>
    turn.save(response).catch((error: unknown) => logger.error({ err: error }, 'the response was answered but could not be stored'));
  const lifecycle = startLifecycle({ metrics, inFlight: inFlightStreams(metrics, routeOf(req)), activeRuns, maxOutputChars });
  let settled = false;
  const protocol = responseProtocol(draft, (response) => {
    settled = true;
    return save(response);
  });
  try {
    return await serveSse(req, res, agent.run(turn.agentRequest, lifecycle.cancellation).pipe(lifecycle.record), protocol, {
      ...context,
      lifecycle,
    });
  } finally {
    lifecycle.finish();
    // A stream that ended before its terminal event leaves an `incomplete` snapshot.
    if (!settled) await save(draft.snapshot('incomplete', 'interrupted'));
  }
}
