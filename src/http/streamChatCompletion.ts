import type { Response } from 'express';
import type { Observable, SchedulerLike } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { Cancellation } from '../agent/cancellation.js';
import type { Metrics } from '../metrics/createMetrics.js';
import type { ChatCompletionMeta } from '../protocol/chatCompletionChunk.js';
import { chatCompletionFrames, type ChatCompletionOperators } from '../protocol/chatCompletionFrames.js';
import { compactChatFrames } from '../protocol/compactChatFrames.js';
import { localsOf } from './requestContext.js';
import { serveSse } from './serveSse.js';
import { serverEndedFrame } from './serverEndedFrame.js';

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
  const { cancellation } = options;
  const locals = localsOf(res);
  const frames$ = chatCompletionFrames(
    options.run$,
    options.meta,
    (error) => {
      locals.outcome = 'error';
      // The client reads the cause in the error frame; the operator reads it here, as for a non-streaming run.
      locals.logger.warn({ err: error }, 'run failed');
    },
    options.operators,
  );
  return serveSse(res, frames$, {
    ...options,
    compact: compactChatFrames,
    // Ended by the server (stop, shutdown): an error frame, so that SDKs raise instead of taking a cut-off answer.
    finalFrame: () => (locals.interruptReason === undefined ? undefined : serverEndedFrame(cancellation.reason, locals.outcome!)),
  });
}
