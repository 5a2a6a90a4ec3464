import { inFlightStreams } from '../metrics/inFlightStreams.js';
import { asyncScheduler, type MonoTypeOperatorFunction } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import { startLifecycle } from '../pipeline/lifecycle.js';
import { applyOperators } from '../pipeline/applyOperators.js';
import { localsOf, routeOf } from '../pipeline/requestLocals.js';
import { serveJson } from '../pipeline/serveJson.js';
import { serveSse } from '../pipeline/serveSse.js';
import type { ServingContext } from '../pipeline/servingContext.js';
import type { RouteHandler } from '../pipeline/routeHandler.js';
import type { Served } from '../pipeline/served.js';
import { upstreamHeader } from '../pipeline/upstreamHeader.js';
import type { ChatCompletionChunk } from './chatCompletionChunk.js';
import { chatProtocol } from './chatProtocol.js';
import { parseChatCompletionRequest } from './chatCompletionRequest.js';
import { refuseIdempotencyKey } from './refuseIdempotencyKey.js';
import { checkToolResults } from './checkToolResults.js';
import { checkToolUse } from './checkToolUse.js';
import { createChatCompletionMeta } from './createChatCompletionMeta.js';
import type { PipelineOperators } from './pipelineOperators.js';
import { toChatCompletion } from './toChatCompletion.js';

export interface ChatCompletionsContext extends ServingContext {
  /** User operators for every chat completion; each factory is called once per request. */
  readonly operators: PipelineOperators;
}

const PARAMS = { toolName: (index: number) => `tools[${index}].function.name`, toolChoiceName: 'tool_choice.function.name' };

/**
 * `POST /v1/chat/completions`, streaming or not. The client's tools, `tool_choice`,
 * `parallel_tool_calls` and model options go to the agent with the conversation; a request whose
 * tools or tool results cannot work is refused before the run starts.
 */
export function chatCompletionsRoute(context: ChatCompletionsContext): RouteHandler {
  const { agent, activeRuns, metrics, maxOutputChars } = context;
  // Promise callbacks, not an async function: one suspended at its await was held by every open stream for its life.
  return (req, res) => {
    const request = parseChatCompletionRequest(req.body);
    refuseIdempotencyKey(req);
    checkToolUse({ serverToolNames: agent.serverToolNames ?? [], ...request }, PARAMS);
    checkToolResults(request.messages, (index) => `messages[${index}].tool_call_id`);
    const locals = localsOf(res);
    const { requestId } = locals;
    const model = request.model ?? context.defaultModel;
    const lifecycle = startLifecycle({ metrics, inFlight: inFlightStreams(metrics, routeOf(req)), activeRuns, maxOutputChars });
    const operatorContext = { cancellation: lifecycle.cancellation, model, scheduler: asyncScheduler };
    const events: MonoTypeOperatorFunction<AgentEvent> = applyOperators(context.operators.events, operatorContext);
    const { messages, clientTools, toolChoice, parallelToolCalls, options } = request;
    const run$ = agent
      .run(
        {
          messages,
          model,
          requestId,
          clientTools,
          toolChoice,
          parallelToolCalls,
          options,
          attemptObserver: upstreamHeader(res),
          trace: locals.trace,
        },
        lifecycle.cancellation,
      )
      .pipe(lifecycle.record);
    const meta = createChatCompletionMeta(model, request.includeUsage, request.includeToolProgress);
    let served: Promise<Served>;
    try {
      if (!request.stream) {
        served = serveJson(res, run$.pipe(events, toChatCompletion(meta)), { lifecycle, metrics, logger: locals.logger });
      } else {
        const chunks: MonoTypeOperatorFunction<ChatCompletionChunk> = applyOperators(context.operators.chunks, operatorContext);
        const { keepaliveMs, maxBufferedBytes } = context;
        served = serveSse(req, res, run$, chatProtocol(meta), { lifecycle, metrics, keepaliveMs, maxBufferedBytes, events, chunks });
      }
    } catch (error) {
      lifecycle.finish();
      throw error;
    }
    return served.finally(() => lifecycle.finish());
  };
}
