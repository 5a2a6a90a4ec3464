import { asyncScheduler, noop, Observable, tap } from 'rxjs';
import { ClientGoneError } from '../../errors/ClientGoneError.js';
import { SlowClientError } from '../../errors/SlowClientError.js';
import type { Logger } from '../../logger.js';
import { inFlightStreams } from '../../metrics/inFlightStreams.js';
import { instantiateOperators } from '../../pipeline/protocolOperators.js';
import { ssePipeline } from '../../pipeline/ssePipeline.js';
import { startLifecycle } from '../../serving/lifecycle.js';
import type { ReleaseSlot } from '../../store/KeyLimits.js';
import { responseProtocol } from '../responseProtocol.js';
import type { ResponsesContext } from '../responsesContext.js';
import { saveOrLog } from '../saveOrLog.js';
import type { ResponseTurn } from '../responseTurn.js';
import { generated$ } from './generated.js';
import type { SocketSink } from './SocketSink.js';
import { socketFrame } from './socketFrame.js';

/** The `route` label of a response over WebSocket in `rxgate_in_flight_streams`. */
export const SOCKET_ROUTE = 'websocket /v1/responses';

/** A `response.create` ready to run: its turn, stored `in_progress`, and the key's stream slot it holds. */
export interface PreparedTurn {
  readonly turn: ResponseTurn;
  /** False for `generate: false`: the response is answered with no model call. */
  readonly generate: boolean;
  readonly release: ReleaseSlot;
}

/**
 * One response of a WebSocket connection, from `response.created` to its terminal event, through
 * THE pipeline (`ssePipeline`: the user's operators, the Responses encoder, the bounded writer)
 * with the socket as its sink: the same events, sequence numbers and item ids an SSE client gets,
 * one message each. `onSettled` is told once the terminal response is stored, before that event
 * is sent. A response the server ended (shutdown) ends with `response.incomplete`, as over SSE.
 *
 * Completes once the response is over; fails with `SlowClientError` for a reader that owes more
 * than `RXGATE_MAX_BUFFERED_BYTES`, with `ClientGoneError` for a socket that closed. Unsubscribed,
 * it interrupts the run at once (the upstream request, tools and MCP calls aborted); the stored
 * response is then `incomplete`, and the key's slot is given back either way.
 */
export function streamToSocket(
  { turn, generate, release }: PreparedTurn,
  context: ResponsesContext,
  sink: SocketSink,
  logger: Logger,
  onSettled: (turn: ResponseTurn) => void,
): Observable<never> {
  return new Observable<never>((subscriber) => {
    const { agent, metrics, activeRuns, maxOutputChars } = context;
    const { draft } = turn;
    const lifecycle = startLifecycle({
      metrics,
      inFlight: inFlightStreams(metrics, SOCKET_ROUTE),
      activeRuns,
      maxOutputChars,
      key: turn.owner,
    });
    const save = saveOrLog(turn, logger);
    let settled = false;
    const protocol = responseProtocol(
      draft,
      async (response) => {
        settled = true;
        await save(response);
        onSettled(turn);
      },
      undefined,
      socketFrame,
    );
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      lifecycle.finish();
      release();
      if (!settled) void save(draft.snapshot('incomplete', 'interrupted'));
    };
    const { events, chunks } = instantiateOperators(context.operators, {
      cancellation: lifecycle.cancellation,
      model: turn.agentRequest.model,
      scheduler: asyncScheduler,
    });
    let serverEnded = false;
    const run$ = generated$(generate, () => agent.run(turn.agentRequest, lifecycle.cancellation).pipe(lifecycle.record));
    const frames = ssePipeline(run$, protocol, {
      sink,
      cancellation: lifecycle.cancellation,
      clientClose$: lifecycle.stop$.pipe(tap(() => (serverEnded = true))),
      maxBufferedBytes: context.maxBufferedBytes,
      events,
      chunks,
      onFailure: (error) => logger.warn({ err: error }, 'run failed'),
      onCompact: () => metrics.slowClientCompactions.inc(),
    }).subscribe({
      complete: () => {
        if (serverEnded && protocol.serverEnded) sink.write(protocol.serverEnded(lifecycle.cancellation.reason), noop);
        finish();
        subscriber.complete();
      },
      error: (error: unknown) => {
        finish();
        if (error instanceof SlowClientError) metrics.slowClientCutoffs.inc();
        else if (!(error instanceof ClientGoneError)) logger.error({ err: error }, 'stream failed');
        subscriber.error(error);
      },
    });
    return () => {
      frames.unsubscribe();
      finish();
    };
  });
}
