import { payerOf } from '../money/payerOf.js';
import { inFlightStreams } from '../metrics/inFlightStreams.js';
import type { Request, Response } from 'express';
import { asyncScheduler, identity, type MonoTypeOperatorFunction } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import { startLifecycle } from '../serving/lifecycle.js';
import { applyOperators } from '../pipeline/applyOperators.js';
import { localsOf, routeOf } from '../serving/requestLocals.js';
import { serveJson } from '../serving/serveJson.js';
import { serveSse } from '../serving/serveSse.js';
import type { ServingContext } from '../serving/servingContext.js';
import type { RouteHandler } from '../serving/routeHandler.js';
import type { Served } from '../serving/served.js';
import { UPSTREAM_HEADER, upstreamHeader } from '../serving/upstreamHeader.js';
import type { AnswerLog } from '../detached/AnswerLog.js';
import type { JsonAnswer } from '../serving/jsonAnswer.js';
import { readIdempotencyKey } from '../serving/readIdempotencyKey.js';
import type { SseProtocol } from '../pipeline/sseProtocol.js';
import { answerChatOnce, type ChatOnceContext } from './answerChatOnce.js';
import { ChatLogEvent } from './chatLog.js';
import { keepFrames } from './keepFrames.js';
import type { ChatCompletionChunk, ChatCompletionMeta } from './chatCompletionChunk.js';
import { chatProtocol } from './chatProtocol.js';
import { parseChatCompletionRequest, type ChatCompletionRequest } from './chatCompletionRequest.js';
import { checkToolResults } from '../openai/checkToolResults.js';
import { checkToolUse } from '../openai/checkToolUse.js';
import { createChatCompletionMeta } from './createChatCompletionMeta.js';
import type { ProtocolOperators } from '../pipeline/protocolOperators.js';
import { toChatCompletion } from './toChatCompletion.js';

export interface ChatCompletionsContext extends ServingContext, ChatOnceContext {
  /** User operators for every chat completion; each factory is called once per request. */
  readonly operators: ProtocolOperators<ChatCompletionChunk>;
}

const PARAMS = { toolName: (index: number) => `tools[${index}].function.name`, toolChoiceName: 'tool_choice.function.name' };

/**
 * `POST /v1/chat/completions`, streaming or not. The client's tools, `tool_choice`,
 * `parallel_tool_calls` and model options go to the agent with the conversation; a request whose
 * tools or tool results cannot work is refused before the run starts (and before any
 * `Idempotency-Key` is looked at: such a request is not kept). With an `Idempotency-Key`, once
 * per key owner: see `answerChatOnce`.
 */
export function chatCompletionsRoute(context: ChatCompletionsContext): RouteHandler {
  const { agent } = context;
  // Promise callbacks, not an async function: one suspended at its await was held by every open stream for its life.
  return (req, res) => {
    const request = parseChatCompletionRequest(req.body);
    checkToolUse({ serverToolNames: agent.serverToolNames ?? [], ...request }, PARAMS);
    checkToolResults(request.messages, (index) => `messages[${index}].tool_call_id`);
    const key = readIdempotencyKey(req);
    const created = createChatCompletionMeta(request.model ?? context.defaultModel, request.includeUsage, request.includeToolProgress);
    const meta = request.customTools.size > 0 ? { ...created, customTools: request.customTools } : created;
    if (key === undefined) return serveChat(req, res, request, meta, context);
    return answerChatOnce(req, res, { key, id: meta.id, stream: request.stream }, context, (log, keep) =>
      serveChat(req, res, request, meta, context, { log, keep }),
    );
  };
}

/** Where the first answer under an `Idempotency-Key` goes: see `FirstAnswer`. */
interface KeptAnswer {
  readonly log: AnswerLog;
  keep(): Promise<boolean>;
}

/** Runs the agent on `request` and serves its answer, as JSON or SSE; with `kept`, writing the answer there as well. */
function serveChat(
  req: Request,
  res: Response,
  request: ChatCompletionRequest,
  meta: ChatCompletionMeta,
  context: ChatCompletionsContext,
  kept?: KeptAnswer,
): Promise<Served> {
  const { agent, activeRuns, metrics, maxOutputChars } = context;
  const locals = localsOf(res);
  const { requestId } = locals;
  const { model } = meta;
  const lifecycle = startLifecycle({
    metrics,
    inFlight: inFlightStreams(metrics, routeOf(req)),
    activeRuns,
    maxOutputChars,
    key: locals.principal.id,
  });
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
        // A stream's headers go out before its answer is known to come from its first attempt: it names none.
        attemptObserver: request.stream ? undefined : upstreamHeader(res),
        trace: locals.trace,
        payer: payerOf(locals.principal, meta.id),
      },
      lifecycle.cancellation,
    )
    .pipe(lifecycle.record);
  let served: Promise<Served>;
  try {
    if (!request.stream) {
      const beforeAnswer = kept
        ? async (answer: JsonAnswer) => {
            const upstream = res.getHeader(UPSTREAM_HEADER);
            const headers = typeof upstream === 'string' ? { ...answer.headers, [UPSTREAM_HEADER]: upstream } : answer.headers;
            kept.log.end({ type: ChatLogEvent.answer, data: JSON.stringify({ ...answer, headers }) });
            await kept.keep();
          }
        : undefined;
      served = serveJson(res, run$.pipe(events, toChatCompletion(meta)), { lifecycle, metrics, logger: locals.logger, beforeAnswer });
    } else {
      const chunks: MonoTypeOperatorFunction<ChatCompletionChunk> = applyOperators(context.operators.chunks, operatorContext);
      const protocol = chatProtocol(meta);
      const { keepaliveMs, maxBufferedBytes } = context;
      served = serveSse(req, res, run$, kept ? logFrames(protocol, kept) : protocol, {
        lifecycle,
        metrics,
        keepaliveMs,
        maxBufferedBytes,
        events,
        chunks,
      });
    }
  } catch (error) {
    lifecycle.finish();
    throw error;
  }
  return served.finally(() => lifecycle.finish());
}

/** `protocol` with every frame it makes also appended to the kept answer's log, its end sent once all of it is kept. */
function logFrames<In, Out>(protocol: SseProtocol<In, Out>, { log, keep }: KeptAnswer): SseProtocol<In, Out> {
  return {
    ...protocol,
    end: keepFrames(protocol.end ?? identity, {
      frame: (frame) => log.append(ChatLogEvent.frame, frame),
      whole: () => {
        log.end({ type: ChatLogEvent.end, data: '' });
        return keep();
      },
    }),
  };
}
