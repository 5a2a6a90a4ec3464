import type { RequestHandler } from 'express';
import { asyncScheduler } from 'rxjs';
import type { Agent } from '../../agent/agent.js';
import { Cancellation } from '../../agent/cancellation.js';
import type { Metrics } from '../../metrics/createMetrics.js';
import { applyOperators } from '../../pipeline/applyOperators.js';
import { composeOperators } from '../../pipeline/composeOperators.js';
import type { PipelineOperators } from '../../pipeline/pipelineOperators.js';
import { recordRunMetrics } from '../../metrics/recordRunMetrics.js';
import { createChatCompletionMeta } from '../../protocol/createChatCompletionMeta.js';
import type { ActiveRuns } from '../activeRuns.js';
import { parseChatCompletionRequest } from '../chatCompletionRequest.js';
import { localsOf } from '../requestContext.js';
import { respondChatCompletion } from '../respondChatCompletion.js';
import { streamChatCompletion } from '../streamChatCompletion.js';

export interface ChatCompletionsRouteOptions {
  readonly agent: Agent;
  readonly activeRuns: ActiveRuns;
  readonly metrics: Metrics;
  readonly operators: PipelineOperators;
  readonly defaultModel: string;
  readonly keepaliveMs: number;
  readonly maxBufferedBytes: number;
}

/** `POST /v1/chat/completions`, streaming or not. */
export function chatCompletionsRoute(options: ChatCompletionsRouteOptions): RequestHandler {
  const { agent, activeRuns, metrics } = options;
  return async (req, res) => {
    const request = parseChatCompletionRequest(req.body);
    const locals = localsOf(res);
    const model = request.model ?? options.defaultModel;
    const cancellation = new Cancellation();
    const context = { cancellation, model, scheduler: asyncScheduler };
    const operators = {
      events: [applyOperators(options.operators.events, context)],
      chunks: [applyOperators(options.operators.chunks, context)],
    };
    const run$ = agent
      .run({ messages: request.messages, model, requestId: locals.requestId }, cancellation)
      .pipe(recordRunMetrics(metrics, (usage) => (locals.usage = usage)));
    const meta = { ...createChatCompletionMeta(model, request.includeUsage), toolProgress: request.includeToolProgress };
    const { stop$, finish } = activeRuns.add(cancellation);
    metrics.inFlightStreams.inc();
    try {
      if (request.stream) {
        await streamChatCompletion(res, {
          run$,
          meta,
          cancellation,
          stop$,
          metrics,
          operators,
          keepaliveMs: options.keepaliveMs,
          maxBufferedBytes: options.maxBufferedBytes,
        });
      } else {
        await respondChatCompletion(res, { run$: run$.pipe(composeOperators(operators.events)), meta, cancellation, stop$, metrics });
      }
    } finally {
      metrics.inFlightStreams.dec();
      finish();
    }
  };
}
