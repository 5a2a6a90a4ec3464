import type { Response } from 'express';
import { map, tap } from 'rxjs';
import { Cancellation } from '../../agent/cancellation.js';
import { recordRunMetrics } from '../../metrics/recordRunMetrics.js';
import { responseFrame } from '../../protocol/responses/responseFrame.js';
import { TERMINAL_RESPONSE_EVENTS, type ResponseObject } from '../../protocol/responses/responseObject.js';
import { toResponseEvents } from '../../protocol/responses/toResponseEvents.js';
import { localsOf } from '../requestContext.js';
import { serveSse } from '../serveSse.js';
import type { ResponsesContext } from './responsesContext.js';
import type { ResponseTurn } from './responseTurn.js';

/**
 * Streams a response as typed SSE events while the client listens. A client that leaves
 * interrupts the run (takeUntil last, as for chat) and the stored snapshot says `incomplete`
 * with the text so far; a server-side end (shutdown) still sends a `response.incomplete`.
 */
export function streamResponse(res: Response, turn: ResponseTurn, context: ResponsesContext): Promise<void> {
  const { agent, activeRuns, metrics } = context;
  const { draft } = turn;
  const locals = localsOf(res);
  const cancellation = new Cancellation();
  const { stop$, finish } = activeRuns.add(cancellation);
  let settled = false;
  const settle = (response: ResponseObject) => {
    settled = true;
    turn.save(response);
  };
  turn.save(draft.snapshot('in_progress'));
  metrics.inFlightStreams.inc();

  const frames$ = agent.run(turn.agentRequest, cancellation).pipe(
    recordRunMetrics(metrics, (usage) => (locals.usage = usage)),
    toResponseEvents(draft.meta, draft),
    tap((event) => {
      if (TERMINAL_RESPONSE_EVENTS.has(event.type)) settle(event.response as ResponseObject);
      if (event.type === 'response.failed') locals.outcome = 'error';
    }),
    map(responseFrame),
  );
  // A stream that ends before its terminal event leaves an `incomplete` snapshot, and tells a client still there.
  const finalFrame = () => {
    if (settled) return undefined;
    const response = draft.snapshot('incomplete', 'interrupted');
    settle(response);
    return responseFrame(draft.event('response.incomplete', { response }));
  };
  return serveSse(res, frames$, {
    cancellation,
    stop$,
    metrics,
    keepaliveMs: context.keepaliveMs,
    maxBufferedBytes: context.maxBufferedBytes,
    finalFrame,
  }).finally(() => {
    metrics.inFlightStreams.dec();
    finish();
  });
}
