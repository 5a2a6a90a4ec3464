import type { Response } from 'express';
import { merge, tap, type Observable, type SchedulerLike } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { Cancellation } from '../agent/cancellation.js';
import { ClientGoneError } from '../errors/ClientGoneError.js';
import { SlowClientError } from '../errors/SlowClientError.js';
import type { ChatCompletionMeta } from '../protocol/chatCompletionChunk.js';
import { chatCompletionFrames } from '../protocol/chatCompletionFrames.js';
import { compactChatFrames } from '../protocol/compactChatFrames.js';
import { clientClose$ } from './clientClose.js';
import { localsOf } from './requestContext.js';
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
  readonly keepaliveMs: number;
  readonly maxBufferedBytes: number;
  readonly scheduler?: SchedulerLike;
}

/** Answers with the run as Chat Completions SSE; resolves when the response is over, however it ended. */
export function streamChatCompletion(res: Response, options: StreamChatCompletionOptions): Promise<void> {
  const { cancellation } = options;
  const locals = localsOf(res);
  res.writeHead(200, SSE_HEADERS);
  res.flushHeaders();

  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    locals.outcome = outcomeOfInterrupt(cancellation.reason);
    locals.interruptReason = cancellation.reason;
  };
  const ended$ = merge(clientClose$(res), options.stop$).pipe(tap(interrupt));
  const frames$ = chatCompletionFrames(options.run$, options.meta, () => (locals.outcome = 'error'));

  return new Promise<void>((resolve) => {
    streamToClient(frames$, { ...options, sink: res, clientClose$: ended$, compact: compactChatFrames }).subscribe({
      complete: () => {
        if (res.destroyed) return resolve();
        if (interrupted) res.write(serverEndedFrame(cancellation.reason, locals.outcome!));
        else locals.outcome ??= 'completed';
        res.end();
        resolve();
      },
      error: (error: unknown) => {
        interrupt();
        if (!(error instanceof SlowClientError || error instanceof ClientGoneError)) locals.logger.error({ err: error }, 'stream failed');
        res.destroy();
        resolve();
      },
    });
  });
}
