import type { Response } from 'express';
import type { Observable, SchedulerLike } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { Cancellation } from '../agent/cancellation.js';
import { ClientGoneError } from '../errors/ClientGoneError.js';
import { SlowClientError } from '../errors/SlowClientError.js';
import type { Metrics } from '../metrics/createMetrics.js';
import type { ChatCompletionMeta } from '../protocol/chatCompletionChunk.js';
import { chatCompletionFrames, type ChatCompletionOperators } from '../protocol/chatCompletionFrames.js';
import { compactChatFrames } from '../protocol/compactChatFrames.js';
import { KEEPALIVE_FRAME } from '../sse/keepalive.js';
import { localsOf } from './requestContext.js';
import { responseEnd$ } from './responseEnd.js';
import { serverEndedFrame } from './serverEndedFrame.js';
import { SSE_HEADERS } from './sseHeaders.js';
import { outcomeOfInterrupt } from './streamOutcome.js';
import { streamToClient } from './streamToClient.js';

export interface StreamChatCompletionOptions {
  readonly run$: Observable<AgentEvent>;
  readonly meta: ChatCompletionMeta;
  readonly cancellation: Cancellation;
  /** Emits to end the stream from the server's side (stop, shutdown); the reason is on `cancellation`. */
  readonly stop$: Observable<void>;
  readonly metrics: Metrics;
  /** User operators, instantiated for this response. */
  readonly operators: ChatCompletionOperators;
  readonly keepaliveMs: number;
  readonly maxBufferedBytes: number;
  readonly scheduler?: SchedulerLike;
}

/** Answers with the run as Chat Completions SSE; resolves when the response is over, however it ended. */
export function streamChatCompletion(res: Response, options: StreamChatCompletionOptions): Promise<void> {
  const { cancellation, metrics } = options;
  const locals = localsOf(res);
  res.writeHead(200, SSE_HEADERS);
  res.flushHeaders();

  const ended$ = responseEnd$(res, options.stop$, cancellation, metrics);
  const frames$ = chatCompletionFrames(options.run$, options.meta, (error) => {
    locals.outcome = 'error';
    // The client reads the cause in the error frame; the operator reads it here, as for a non-streaming run.
    locals.logger.warn({ err: error }, 'run failed');
  }, options.operators);
  let firstByte = true;
  // Counted here and added to the metrics once, when the response is over: not per frame.
  let bytesWritten = 0;
  let keepalives = 0;
  const recordWrites = () => {
    metrics.bytesWritten.inc(bytesWritten);
    metrics.keepalives.inc(keepalives);
  };

  return new Promise<void>((resolve) => {
    streamToClient(frames$, {
      ...options,
      sink: res,
      clientClose$: ended$,
      compact: compactChatFrames,
      onCompact: () => metrics.slowClientCompactions.inc(),
    }).subscribe({
      next: (frame) => {
        if (firstByte) metrics.timeToFirstByte.observe((performance.now() - locals.startedAt) / 1000);
        firstByte = false;
        bytesWritten += Buffer.byteLength(frame);
        if (frame === KEEPALIVE_FRAME) keepalives++;
      },
      complete: () => {
        recordWrites();
        if (!res.destroyed && locals.interruptReason !== undefined) res.write(serverEndedFrame(cancellation.reason, locals.outcome!));
        locals.outcome ??= 'completed';
        res.end();
        resolve();
      },
      error: (error: unknown) => {
        recordWrites();
        locals.outcome = outcomeOfInterrupt(cancellation.reason);
        locals.interruptReason = cancellation.reason;
        if (error instanceof SlowClientError) metrics.slowClientCutoffs.inc();
        else if (!(error instanceof ClientGoneError)) locals.logger.error({ err: error }, 'stream failed');
        res.destroy();
        resolve();
      },
    });
  });
}
