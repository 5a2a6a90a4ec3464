import { payerOf } from '../money/payerOf.js';
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { asyncScheduler } from 'rxjs';
import { inFlightStreams } from '../metrics/inFlightStreams.js';
import { checkToolResults } from '../openai/checkToolResults.js';
import { checkToolUse } from '../openai/checkToolUse.js';
import { instantiateOperators, type ProtocolOperators } from '../pipeline/protocolOperators.js';
import { startLifecycle } from '../serving/lifecycle.js';
import { localsOf, routeOf } from '../serving/requestLocals.js';
import type { RouteHandler } from '../serving/routeHandler.js';
import type { Served } from '../serving/served.js';
import { serveJson } from '../serving/serveJson.js';
import { serveSse } from '../serving/serveSse.js';
import type { ServingContext } from '../serving/servingContext.js';
import { upstreamHeader } from '../serving/upstreamHeader.js';
import { tokenCounter } from '../wire/tokenCount.js';
import { countInputTokens } from './countInputTokens.js';
import type { MessageMeta, MessageStreamEvent } from './messageObjects.js';
import { messagesProtocol } from './messagesProtocol.js';
import { parseMessagesRequest, type MessagesRequest } from './messagesRequest.js';
import { toMessage } from './toMessage.js';

export interface MessagesContext extends ServingContext {
  /** User operators for every Messages answer; each factory is called once per request. */
  readonly operators: ProtocolOperators<MessageStreamEvent>;
}

const PARAMS = { toolName: (index: number) => `tools[${index}].name`, toolChoiceName: 'tool_choice.name' };

/** `msg_` and 24 random characters, as Anthropic's ids look. */
const messageId = (): string => `msg_${randomBytes(18).toString('base64url')}`;

/**
 * `POST /v1/messages`, streaming or not: Anthropic's Messages API over the same agent, routes and
 * keys as chat completions. The request becomes the agent's (`parseMessagesRequest`); a request
 * whose tools or tool results cannot work is refused before the run starts; its input is counted
 * first, so that `message_start` carries a real count before the upstream has said anything.
 * Top-level fields rxgate does not read are dropped, each logged once (at debug) per server.
 */
export function messagesRoute(context: MessagesContext): RouteHandler {
  const { agent } = context;
  const droppedSeen = new Set<string>();
  return (req, res) => {
    const request = parseMessagesRequest(req.body);
    checkToolUse({ serverToolNames: agent.serverToolNames ?? [], ...request }, PARAMS);
    checkToolResults(request.messages, () => 'messages');
    const unseen = request.dropped.filter((field) => !droppedSeen.has(field));
    if (unseen.length > 0) {
      for (const field of unseen) droppedSeen.add(field);
      localsOf(res).logger.debug({ fields: unseen }, 'dropped Messages fields rxgate does not read');
    }
    // Promise callbacks, not an async function: one suspended at its await was held by every open stream for its life.
    return tokenCounter().then((count) =>
      serveMessage(
        req,
        res,
        request,
        { id: messageId(), model: request.model, inputTokens: countInputTokens(count, request.body) },
        context,
      ),
    );
  };
}

/** Runs the agent on `request` and serves its answer, as a `Message` or as Anthropic's stream. */
function serveMessage(req: Request, res: Response, request: MessagesRequest, meta: MessageMeta, context: MessagesContext): Promise<Served> {
  const { agent, activeRuns, metrics, maxOutputChars } = context;
  const locals = localsOf(res);
  const lifecycle = startLifecycle({
    metrics,
    inFlight: inFlightStreams(metrics, routeOf(req)),
    activeRuns,
    maxOutputChars,
    key: locals.principal.id,
  });
  const { events, chunks } = instantiateOperators(context.operators, {
    cancellation: lifecycle.cancellation,
    model: meta.model,
    scheduler: asyncScheduler,
  });
  const { messages, clientTools, toolChoice, parallelToolCalls, options, stream } = request;
  const run$ = agent
    .run(
      {
        messages,
        model: meta.model,
        requestId: locals.requestId,
        clientTools,
        toolChoice,
        parallelToolCalls,
        options,
        // A stream's headers go out before its answer is known to come from its first attempt: it names none.
        attemptObserver: stream ? undefined : upstreamHeader(res),
        trace: locals.trace,
        payer: payerOf(locals.principal, meta.id),
      },
      lifecycle.cancellation,
    )
    .pipe(lifecycle.record);
  let served: Promise<Served>;
  try {
    served = stream
      ? serveSse(req, res, run$, messagesProtocol(meta), {
          lifecycle,
          metrics,
          keepaliveMs: context.keepaliveMs,
          maxBufferedBytes: context.maxBufferedBytes,
          events,
          chunks,
        })
      : serveJson(res, run$.pipe(events, toMessage(meta)), { lifecycle, metrics, logger: locals.logger });
  } catch (error) {
    lifecycle.finish();
    throw error;
  }
  return served.finally(() => lifecycle.finish());
}
