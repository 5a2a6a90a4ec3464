import {
  asyncScheduler,
  concat,
  connect,
  defer,
  filter,
  merge,
  mergeMap,
  of,
  tap,
  throwError,
  timeout,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import { UpstreamError } from '../../errors/UpstreamError.js';
import { silentLogger, type Logger } from '../../logger.js';
import type { Agent, ChatMessage } from '../agent.js';
import type { AgentEvent, FinishReason } from '../agentEvent.js';
import { createRun } from '../createRun.js';
import { sumUsage, ZERO_USAGE } from '../sumUsage.js';
import { runToolCall } from '../tools/runToolCall.js';
import type { Tool } from '../tools/tool.js';
import { toToolDefinitions } from '../tools/toToolDefinitions.js';
import { deadline } from './deadline.js';
import { toTurnEvents, type TurnEnd, type TurnEvent } from './toTurnEvents.js';
import type { UpstreamChunk } from './upstreamChunk.js';
import { upstreamChunks } from './upstreamChunks.js';

export interface LlmAgentOptions {
  /** The OpenAI-compatible API root, ending in `/v1` (e.g. `http://127.0.0.1:11434/v1`). */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer`; never logged nor put in an error message. Default: none. */
  readonly apiKey?: string;
  /** The upstream model every call asks for. */
  readonly model: string;
  /** The tools the model may call. Default: none. */
  readonly tools?: readonly Tool[];
  /** Model calls per run before it finishes with `length`. Default: 10. */
  readonly maxIterations?: number;
  /** The most one upstream call may take, from request to last byte. Default: 600 000 ms. */
  readonly requestTimeoutMs?: number;
  /** The most an upstream call may take to send its first token (text, reasoning or tool call). Default: 60 000 ms. */
  readonly firstTokenTimeoutMs?: number;
  /** Default: a silent logger. */
  readonly logger?: Logger;
  /** Schedules the timeouts. Default: `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Told the HTTP status of every upstream answer, 0 when there was none (metrics). */
  readonly onUpstreamResponse?: (status: number) => void;
}

function carriesOutput(chunk: UpstreamChunk): boolean {
  if (chunk.usage) return true;
  return (chunk.choices ?? []).some(({ delta, finish_reason }) =>
    Boolean(finish_reason || delta?.content || delta?.reasoning_content || delta?.reasoning || delta?.tool_calls?.length),
  );
}

function toFinishReason(upstream: string | null): FinishReason {
  return upstream === 'length' ? 'length' : 'stop';
}

/**
 * The real agent: an OpenAI-compatible chat completions upstream, streamed, with tools. Each
 * model call streams its deltas out as they arrive; when the model asks for tools, they run
 * concurrently, their results go back as `tool` messages, and the model is called again, up to
 * `maxIterations` calls. Unsubscribing aborts the upstream request and every running tool.
 *
 * ```
 * run:   -t-t--(s s)--(e e)(u)--t-t-(uf|)     t = text, s/e = tool start/end, u = usage, f = finish
 *        |- call 1 -|- tools -|- call 2 -|
 * ```
 */
export function createLlmAgent(options: LlmAgentOptions): Agent {
  const {
    baseUrl,
    apiKey,
    model,
    tools = [],
    maxIterations = 10,
    requestTimeoutMs = 600_000,
    firstTokenTimeoutMs = 60_000,
    scheduler = asyncScheduler,
  } = options;
  const logger = (options.logger ?? silentLogger).child({ agent: 'llm', model });
  const url = `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const toolDefinitions = toToolDefinitions(tools);
  const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));

  function callModel(messages: readonly ChatMessage[], signal: AbortSignal, requestId: string | undefined): Observable<TurnEvent> {
    const body = {
      model,
      messages,
      stream: true,
      stream_options: { include_usage: true },
      ...(toolDefinitions.length > 0 ? { tools: toolDefinitions } : {}),
    };
    return upstreamChunks({ url, apiKey, body, signal, requestId, onResponse: options.onUpstreamResponse }).pipe(
      filter(carriesOutput),
      timeout({
        first: firstTokenTimeoutMs,
        scheduler,
        with: () =>
          throwError(
            () => new UpstreamError('first_token_timeout', `sent no token within ${firstTokenTimeoutMs} ms (firstTokenTimeoutMs)`),
          ),
      }),
      deadline(
        requestTimeoutMs,
        () => new UpstreamError('timeout', `did not finish its answer within ${requestTimeoutMs} ms (requestTimeoutMs)`),
        scheduler,
      ),
      toTurnEvents(),
    );
  }

  function runTools(
    turn: TurnEnd,
    signal: AbortSignal,
    nextTurn$: (toolMessages: ChatMessage[]) => Observable<AgentEvent>,
  ): Observable<AgentEvent> {
    return defer(() => {
      const outcomes = new Map<string, string>();
      const calls$ = turn.toolCalls.map((call) =>
        runToolCall(
          toolsByName.get(call.function.name),
          { callId: call.id, name: call.function.name, arguments: call.function.arguments },
          signal,
        ),
      );
      const tools$ = merge(...calls$).pipe(
        tap((event) => {
          if (event.type === 'tool_end') outcomes.set(event.callId, event.error === undefined ? event.result! : `Error: ${event.error}`);
        }),
      );
      const toolMessages = (): ChatMessage[] =>
        turn.toolCalls.map((call) => ({ role: 'tool', tool_call_id: call.id, content: outcomes.get(call.id) ?? 'Error: no result' }));
      return concat(
        tools$,
        defer(() => nextTurn$(toolMessages())),
      );
    });
  }

  function converse(
    messages: readonly ChatMessage[],
    iteration: number,
    signal: AbortSignal,
    requestId: string | undefined,
  ): Observable<AgentEvent> {
    logger.debug({ iteration, messages: messages.length }, 'calling the upstream model');
    // Deltas pass straight through; only the turn's end (its last value) decides what comes next.
    return callModel(messages, signal, requestId).pipe(
      connect((turn$) =>
        merge(
          turn$.pipe(filter((event): event is AgentEvent => event.type !== 'turn_end')),
          turn$.pipe(
            filter((event): event is TurnEnd => event.type === 'turn_end'),
            mergeMap((event) => afterTurn(event)),
          ),
        ),
      ),
    );

    function afterTurn(event: TurnEnd): Observable<AgentEvent> {
      if (event.toolCalls.length === 0) return of({ type: 'finish', reason: toFinishReason(event.finishReason) });
      if (iteration >= maxIterations) {
        const note = `\n\n[rxgate: stopped after ${maxIterations} model calls, the limit (maxIterations), while the model was still calling tools.]`;
        return of<AgentEvent[]>({ type: 'text', delta: note }, { type: 'finish', reason: 'length' });
      }
      const assistant: ChatMessage = {
        role: 'assistant',
        content: event.content === '' ? null : event.content,
        tool_calls: event.toolCalls,
      };
      return runTools(event, signal, (toolMessages) =>
        converse([...messages, assistant, ...toolMessages], iteration + 1, signal, requestId),
      );
    }
  }

  const agent: Agent = {
    description: `LLM agent (${model} at ${baseUrl}, tools: ${tools.map((tool) => tool.name).join(', ') || 'none'})`,
    run(request, cancellation) {
      return createRun(
        cancellation,
        (signal) => {
          let usage = ZERO_USAGE;
          const events$ = converse(request.messages, 1, signal, request.requestId).pipe(
            tap((event) => {
              if (event.type === 'usage') usage = sumUsage(usage, event.usage);
            }),
          );
          return {
            events: events$,
            interrupt: (reason) => logger.info({ requestId: request.requestId, reason, usage }, 'llm run interrupted'),
          };
        },
        { logger },
      );
    },
  };
  return agent;
}
