import type { RequestHandler } from 'express';
import type { Agent } from '../../agent/agent.js';
import { Cancellation } from '../../agent/cancellation.js';
import { createChatCompletionMeta } from '../../protocol/createChatCompletionMeta.js';
import type { ActiveRuns } from '../activeRuns.js';
import { parseChatCompletionRequest } from '../chatCompletionRequest.js';
import { respondChatCompletion } from '../respondChatCompletion.js';
import { streamChatCompletion } from '../streamChatCompletion.js';

export interface ChatCompletionsRouteOptions {
  readonly agent: Agent;
  readonly activeRuns: ActiveRuns;
  readonly defaultModel: string;
  readonly keepaliveMs: number;
  readonly maxBufferedBytes: number;
}

/** `POST /v1/chat/completions`, streaming or not. */
export function chatCompletionsRoute(options: ChatCompletionsRouteOptions): RequestHandler {
  const { agent, activeRuns } = options;
  return async (req, res) => {
    const request = parseChatCompletionRequest(req.body);
    const model = request.model ?? options.defaultModel;
    const cancellation = new Cancellation();
    const run$ = agent.run({ messages: request.messages, model }, cancellation);
    const meta = createChatCompletionMeta(model, request.includeUsage);
    const { stop$, finish } = activeRuns.add(cancellation);
    try {
      if (request.stream) {
        await streamChatCompletion(res, { run$, meta, cancellation, stop$, keepaliveMs: options.keepaliveMs, maxBufferedBytes: options.maxBufferedBytes });
      } else {
        await respondChatCompletion(res, { run$, meta, cancellation, stop$ });
      }
    } finally {
      finish();
    }
  };
}
