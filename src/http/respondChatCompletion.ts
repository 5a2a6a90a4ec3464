import type { Response } from 'express';
import { takeUntil, type Observable } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { Cancellation } from '../agent/cancellation.js';
import { RequestError } from '../errors/RequestError.js';
import type { Metrics } from '../metrics/createMetrics.js';
import type { ChatCompletionMeta } from '../protocol/chatCompletionChunk.js';
import { toChatCompletion } from '../protocol/toChatCompletion.js';
import { localsOf } from './requestContext.js';
import { responseEnd$ } from './responseEnd.js';
import { sendError } from './sendError.js';

export interface RespondChatCompletionOptions {
  readonly run$: Observable<AgentEvent>;
  readonly meta: ChatCompletionMeta;
  readonly cancellation: Cancellation;
  readonly stop$: Observable<void>;
  readonly metrics: Metrics;
}

/**
 * Answers with one `chat.completion` once the run completes. A client that leaves while it waits
 * interrupts the run exactly as a streaming client would.
 */
export function respondChatCompletion(
  res: Response,
  { run$, meta, cancellation, stop$, metrics }: RespondChatCompletionOptions,
): Promise<void> {
  const locals = localsOf(res);
  return new Promise<void>((resolve) => {
    run$.pipe(toChatCompletion(meta), takeUntil(responseEnd$(res, stop$, cancellation, metrics))).subscribe({
      next: (completion) => {
        locals.outcome = 'completed';
        res.json(completion);
      },
      error: (error: unknown) => {
        locals.outcome = 'error';
        locals.logger.warn({ err: error }, 'run failed');
        sendError(res, error);
        resolve();
      },
      complete: () => {
        if (locals.outcome !== 'completed' && !res.destroyed) {
          sendError(res, new RequestError(503, cancellation.reason, 'server_error', null, locals.outcome ?? null));
        }
        resolve();
      },
    });
  });
}
