import type { Response } from 'express';
import { map, tap } from 'rxjs';
import { Cancellation } from '../../agent/cancellation.js';
import { recordRunMetrics } from '../../metrics/recordRunMetrics.js';
import { responseFrame } from '../../protocol/responses/responseFrame.js';
import { TERMINAL_RESPONSE_EVENTS, type ResponseObject } from '../../protocol/responses/responseObject.js';
import { toResponseEvents } from '../../protocol/responses/toResponseEvents.js';
import { localsOf } from '../requestContext.js';
import { responseEnd$ } from '../responseEnd.js';
import { SSE_HEADERS } from '../sseHeaders.js';
import { streamToClient } from '../streamToClient.js';
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
  res.writeHead(200, SSE_HEADERS);
  res.flushHeaders();
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
  const done = () => {
    metrics.inFlightStreams.dec();
    finish();
  };
  return new Promise<void>((resolve) => {
    streamToClient(frames$, {
      sink: res,
      clientClose$: responseEnd$(res, stop$, cancellation, metrics),
      cancellation,
      keepaliveMs: context.keepaliveMs,
      maxBufferedBytes: context.maxBufferedBytes,
    }).subscribe({
      complete: () => {
        if (!settled) {
          const response = draft.snapshot('incomplete', 'interrupted');
          settle(response);
          if (!res.destroyed) res.write(responseFrame(draft.event('response.incomplete', { response })));
        }
        locals.outcome ??= 'completed';
        res.end();
        done();
        resolve();
      },
      error: () => {
        locals.outcome = 'client_disconnected';
        if (!settled) settle(draft.snapshot('incomplete', 'interrupted'));
        res.destroy();
        done();
        resolve();
      },
    });
  });
}
