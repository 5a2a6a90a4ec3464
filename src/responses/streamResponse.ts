import type { Request, Response } from 'express';
import { startLifecycle } from '../pipeline/lifecycle.js';
import { routeOf } from '../pipeline/requestLocals.js';
import type { Served } from '../pipeline/served.js';
import { serveSse } from '../pipeline/serveSse.js';
import { responseProtocol } from './responseProtocol.js';
import type { ResponsesContext } from './responsesContext.js';
import type { ResponseTurn } from './responseTurn.js';

/**
 * Streams a response as typed SSE events while the client listens. A client that leaves
 * interrupts the run (as for chat) and the stored snapshot says `incomplete` with the text so
 * far; a server-side end (shutdown) still sends a `response.incomplete`.
 */
export async function streamResponse(req: Request, res: Response, turn: ResponseTurn, context: ResponsesContext): Promise<Served> {
  const { agent, metrics, activeRuns, maxOutputChars } = context;
  const { draft } = turn;
  const lifecycle = startLifecycle({ metrics, inFlight: metrics.inFlightStreams.labels(routeOf(req)), activeRuns, maxOutputChars });
  let settled = false;
  const protocol = responseProtocol(draft, (response) => {
    settled = true;
    turn.save(response);
  });
  turn.save(draft.snapshot('in_progress'));
  try {
    return await serveSse(req, res, agent.run(turn.agentRequest, lifecycle.cancellation).pipe(lifecycle.record), protocol, {
      ...context,
      lifecycle,
    });
  } finally {
    // A stream that ended before its terminal event leaves an `incomplete` snapshot.
    if (!settled) turn.save(draft.snapshot('incomplete', 'interrupted'));
    lifecycle.finish();
  }
}
