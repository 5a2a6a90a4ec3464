import type { BudgetGuard } from '../../upstream/BudgetGuard.js';
import type { SpentCall } from '../../upstream/SpentCall.js';
import type { PriceBook } from '../../money/PriceBook.js';
import { asyncScheduler, concat, defer, merge, of, tap, throwError, using, type Observable, type SchedulerLike } from 'rxjs';
import { DEFAULTS } from '../../config.js';
import { AgentError } from '../../errors/AgentError.js';
import { silentLogger, type Logger } from '../../logger.js';
import type { Agent, AgentRequest, ChatMessage, ToolCall, ToolChoice } from '../agent.js';
import type { AgentEvent, FinishReason, Usage } from '../agentEvent.js';
import { clientToolConflicts } from '../clientToolConflicts.js';
import { createAbortableRun } from '../createRun.js';
import type { AbortNotice } from '../../upstream/AbortNotice.js';
import type { RunAbort } from '../RunAbort.js';
import { queueSteers, type SteerQueue } from '../queueSteers.js';
import { sumUsage, ZERO_USAGE } from '../sumUsage.js';
import { approvalPolicy } from '../tools/approvalPolicy.js';
import { gateToolCall, pendingApprovals, type ToolGate } from '../tools/gateToolCall.js';
import type { Tool, ToolSource } from '../tools/tool.js';
import { toToolDefinitions, type ToolDefinition } from '../tools/toToolDefinitions.js';
import { continueAfterTurn } from './continueAfterTurn.js';
import type { UpstreamPost } from '../../upstream/UpstreamPost.js';
import { toTurnEvents, type TurnEnd, type TurnEvent } from './toTurnEvents.js';
import { upstreamChunks } from '../../upstream/openaiChat/upstreamChunks.js';
import { messagesChunks } from '../../upstream/anthropicMessages/messagesChunks.js';
import { toUpstreamBody } from './toUpstreamBody.js';
import { traceModelCall } from './traceModelCall.js';
import { ApprovedAlways } from '../tools/ApprovedAlways.js';
import type { AttemptObserver } from '../../upstream/AttemptObserver.js';
import { createModelCaller } from '../../upstream/createModelCaller.js';
import type { Routes, Target } from '../../upstream/routes.js';
import { singleRoute } from '../../upstream/singleRoute.js';
import type { UpstreamChunk } from '../../upstream/upstreamChunk.js';
import { traceToolCall } from '../tools/traceToolCall.js';
import type { RunTrace } from '../../tracing/RunTrace.js';

export interface LlmAgentOptions {
  /**
   * Several upstreams, and which of them each model name the client asks for goes to, with
   * retries, failover, fallbacks and breakers (`loadRoutes`). Default: the one route of
   * `baseUrl`, `apiKey` and `model`, which every model name goes to, once.
   */
  readonly routes?: Routes;
  /** The OpenAI-compatible API root, ending in `/v1` (e.g. `http://127.0.0.1:11434/v1`); required without `routes`. */
  readonly baseUrl?: string;
  /** Sent as `Authorization: Bearer`; never logged nor put in an error message. Default: none. */
  readonly apiKey?: string;
  /** The upstream model every call asks for; required without `routes`. */
  readonly model?: string;
  /** Told of every upstream attempt (metrics, traces). Default: nobody. */
  readonly attemptObserver?: AttemptObserver;
  /** The tools the model may call. Default: none. */
  readonly tools?: readonly Tool[] | ToolSource;
  /** Model calls per run before it finishes with `length`. Default: `RXGATE_MAX_TOOL_ITERATIONS`'s. */
  readonly maxIterations?: number;
  /** Opt-in, without `routes`: the most one upstream call may take, from request to last byte. Default: none. */
  readonly requestTimeoutMs?: number;
  /** Without `routes`: the most an upstream call may take to send its first token (text, reasoning or tool call). Default: `RXGATE_UPSTREAM_FIRST_TOKEN_TIMEOUT_MS`'s. */
  readonly firstTokenTimeoutMs?: number;
  /** Without `routes`: the upstream's connect, first-byte and idle timeouts. Default: the `RXGATE_UPSTREAM_*_TIMEOUT_MS` settings'. */
  readonly connectTimeoutMs?: number;
  readonly firstByteTimeoutMs?: number;
  readonly idleTimeoutMs?: number;
  /** Default: a silent logger. */
  readonly logger?: Logger;
  /** Schedules the timeouts. Default: `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Told the HTTP status of every upstream answer, 0 when there was none (metrics). */
  readonly onUpstreamResponse?: (status: number) => void;
  /** Makes one upstream call, as the stream of its chunks. Default: `upstreamChunks` (HTTP), `messagesChunks` for an `anthropic` upstream. */
  readonly upstreamChunks?: (post: UpstreamPost) => Observable<UpstreamChunk>;
  /** The most bytes the upstream may send without ending an SSE event (then `malformed_frame`). Default: `RXGATE_UPSTREAM_MAX_FRAME_BYTES`'s. */
  readonly maxFrameBytes?: number;
  /** Characters of tool-call names and arguments one model call may send; past it the run ends as cut by length. Default: `RXGATE_MAX_OUTPUT_CHARS`'s. */
  readonly maxToolCallChars?: number;
  /** The prices of `RXGATE_PRICES_FILE` as they are now (a route target's own `price` wins). Default: none, every call unpriced. */
  readonly prices?: () => PriceBook;
  /** Told once of every upstream attempt that spent something: the usage ledger, the cost metrics. Default: nobody. */
  readonly onSpent?: (call: SpentCall) => void;
  /** Keeps the calls of a payer with a budget within it (see `createModelCaller`). Default: budgets are not enforced. */
  readonly budgets?: BudgetGuard;
  /** Which tools' calls wait for a person's approval. Default: those marked `requiresApproval`. */
  readonly requireApproval?: (tool: Tool) => boolean;
}

// Anything unknown reads as `stop`: FinishReason stays the vocabulary every encoder maps.
function toFinishReason(upstream: string | null): FinishReason {
  return upstream === 'length' || upstream === 'content_filter' ? upstream : 'stop';
}

/** The one route of an agent without `routes`: every model name to `model` at `baseUrl`, once. */
function singleRouteOf(options: LlmAgentOptions): Routes {
  const { baseUrl, apiKey, model } = options;
  if (!baseUrl || !model) throw new AgentError('the LLM agent needs either routes or a baseUrl and a model', 'invalid_options');
  return singleRoute({
    url: baseUrl,
    apiKey,
    model,
    timeouts: {
      connectMs: options.connectTimeoutMs ?? DEFAULTS.upstreamConnectTimeoutMs,
      firstByteMs: options.firstByteTimeoutMs ?? DEFAULTS.upstreamFirstByteTimeoutMs,
      firstContentMs: options.firstTokenTimeoutMs ?? DEFAULTS.upstreamFirstTokenTimeoutMs,
      idleMs: options.idleTimeoutMs ?? DEFAULTS.upstreamIdleTimeoutMs,
      totalMs: options.requestTimeoutMs ?? DEFAULTS.upstreamTimeoutMs,
    },
  });
}

/**
 * `required` or a named tool on every call would make the model call tools until `maxIterations`:
 * like the OpenAI Agents SDK, such a choice binds the first model call of a run, later ones are `auto`.
 */
function toolChoiceFor(iteration: number, choice: ToolChoice | undefined): ToolChoice | undefined {
  return iteration === 1 || choice === undefined || choice === 'none' || choice === 'auto' ? choice : 'auto';
}

/** The unanswered calls that end a resumed conversation: an assistant turn whose calls waited for approval (Responses API). */
function callsToResume({ messages, approvals }: AgentRequest): readonly ToolCall[] {
  const last = messages.at(-1);
  return approvals?.mode === 'end' && last?.role === 'assistant' ? (last.tool_calls ?? []) : [];
}

/** What every model call and tool call of one run shares. */
interface RunState {
  readonly abort: RunAbort;
  readonly gate: ToolGate;
  readonly steers: SteerQueue;
  /** The run's span, which its tool calls' spans hang below; none with tracing off. */
  readonly trace: RunTrace | undefined;
  /** The usage of its model calls so far, for the log line of an interrupted run. */
  usage: Usage;
}

/** The server's tools as offered in one model call: the definitions the upstream is sent, and the tools by name. */
interface OfferedTools {
  readonly tools: readonly Tool[];
  readonly definitions: readonly ToolDefinition[];
  readonly byName: ReadonlyMap<string, Tool>;
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
 *
 * The client's tools (`request.clientTools`) are offered next to the agent's, with the client's
 * `tool_choice`, `parallel_tool_calls` and options. A call to a client tool streams out as
 * `tool_call_delta`s and ends the run with `finish` `tool_calls`: the client runs it and asks again
 * with the result. A model turn that calls both kinds runs none of the agent's tools and returns
 * only the client's calls, so that no half of a turn the client does not see runs: the agent's
 * calls are deferred (logged at info), and the model, asked again with the client's results,
 * calls them again if it still needs them. No side effect runs twice, none runs unseen.
 *
 * A call of a tool that needs approval (`requireApproval`) passes `gateToolCall` first: it waits
 * for a person (`request.approvals`), and a run that has nobody to ask is not offered such tools.
 * Steers (`request.steers$`) join the conversation as user messages at the next model call, once
 * the tool calls in flight have ended; one that comes during the last answer gets a model call of its own.
 *
 * ```
 * answers$:  ------o----        o = approve once; s = a steer
 * steers$:   ---s-------
 * run:       -(R)--(DS)E-(Z)t-(uf|)     R = approval_required, D = approval_resolved, S/E = tool start/end, Z = steered
 * ```
 */
export function createLlmAgent(options: LlmAgentOptions): Agent {
  const {
    tools = [],
    maxIterations = DEFAULTS.maxToolIterations,
    maxToolCallChars = DEFAULTS.maxOutputChars,
    scheduler = asyncScheduler,
    requireApproval = approvalPolicy(),
  } = options;
  const routes = options.routes ?? singleRouteOf(options);
  const upstreamNames = [...routes.models.values()].flatMap((route) =>
    route.targets.map((target) => `${target.model} at ${target.upstream}`),
  );
  const logger = (options.logger ?? silentLogger).child({ agent: 'llm', ...(options.model ? { model: options.model } : {}) });
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULTS.upstreamMaxFrameBytes;
  const caller = createModelCaller(routes, {
    open:
      options.upstreamChunks ??
      ((post) => (post.kind === 'anthropic' ? messagesChunks(post, { maxFrameBytes }) : upstreamChunks(post, { maxFrameBytes }))),
    observer: options.attemptObserver,
    onResponse: options.onUpstreamResponse,
    prices: options.prices,
    onSpent: options.onSpent,
    budgets: options.budgets,
    scheduler,
  });
  const source: ToolSource = Array.isArray(tools) ? { tools: () => tools } : (tools as ToolSource);
  // A source returns the same array until its tools change: what the upstream is told is built once per change,
  // once with every tool and once without those that need approval (for runs nobody can approve in).
  const offered = new Map<boolean, { readonly from: readonly Tool[]; readonly tools: OfferedTools }>();
  const offer = (withApprovals = true): OfferedTools => {
    const now = source.tools();
    const cached = offered.get(withApprovals);
    if (cached?.from === now) return cached.tools;
    const tools = withApprovals ? now : now.filter((tool) => !requireApproval(tool));
    const built = { tools, definitions: toToolDefinitions(tools), byName: new Map(tools.map((tool) => [tool.name, tool])) };
    offered.set(withApprovals, { from: now, tools: built });
    return built;
  };

  function callModel(
    request: AgentRequest,
    messages: readonly ChatMessage[],
    iteration: number,
    signal: AbortNotice,
    serverTools: OfferedTools,
  ): Observable<TurnEvent> {
    const clientTools = request.clientTools ?? [];
    const bodyFor = ({ model, maxOutputTokens }: Target) =>
      toUpstreamBody({
        model,
        maxOutputTokens,
        messages,
        tools: [...serverTools.definitions, ...clientTools],
        toolChoice: toolChoiceFor(iteration, request.toolChoice),
        parallelToolCalls: request.parallelToolCalls,
        options: request.options,
      });
    const clientToolNames = clientTools.length > 0 ? new Set(clientTools.map((tool) => tool.function.name)) : undefined;
    // Every model call of the tool loop goes through the upstream layer: a later call of a run may fail over too.
    const call$ = (trace?: RunTrace) =>
      caller.call({
        route: request.model,
        bodyFor,
        signal,
        requestId: request.requestId,
        observer: request.attemptObserver,
        trace,
        payer: request.payer,
      });
    const traced$ = request.trace ? traceModelCall(request.trace, { model: request.model, messages, iteration }, call$) : call$();
    return traced$.pipe(toTurnEvents({ clientToolNames, maxToolCallChars }));
  }

  /** The calls of one turn, each past its gate; or, when some wait for answers the run cannot wait for, none, and the run ends with their requests. */
  function runTools(
    toolCalls: readonly ToolCall[],
    serverTools: OfferedTools,
    run: RunState,
    nextTurn$: (toolMessages: ChatMessage[]) => Observable<AgentEvent>,
  ): Observable<AgentEvent> {
    return defer(() => {
      const calls = toolCalls.map((call) => ({
        tool: serverTools.byName.get(call.function.name),
        call: { callId: call.id, name: call.function.name, arguments: call.function.arguments },
      }));
      const waiting = pendingApprovals(calls, run.gate);
      if (waiting.length > 0) return of<AgentEvent[]>(...waiting, { type: 'finish', reason: 'stop' });
      const outcomes = new Map<string, string>();
      const { trace } = run;
      const calls$ = calls.map(({ tool, call }) =>
        trace
          ? traceToolCall(trace, tool, call, (traced) => gateToolCall(tool, traced, run.abort.signal, run.gate))
          : gateToolCall(tool, call, run.abort.signal, run.gate),
      );
      const tools$ = merge(...calls$).pipe(
        tap((event) => {
          if (event.type === 'tool_end') outcomes.set(event.callId, event.error === undefined ? event.result! : `Error: ${event.error}`);
        }),
      );
      const toolMessages = (): ChatMessage[] =>
        toolCalls.map((call) => ({ role: 'tool', tool_call_id: call.id, content: outcomes.get(call.id) ?? 'Error: no result' }));
      return concat(
        tools$,
        defer(() => nextTurn$(toolMessages())),
      );
    });
  }

  function converse(request: AgentRequest, history: readonly ChatMessage[], iteration: number, run: RunState): Observable<AgentEvent> {
    // The steers a person sent since the last model call join the conversation here, at the boundary.
    const steers = run.steers.take();
    // No steer comes after the last call the limit allows: the run stops taking them, and says so (409).
    if (iteration >= maxIterations) run.steers.subscription.unsubscribe();
    // The history as it is when no steer came: a spread copy keeps room for 17 messages more, for the run's life.
    const messages: readonly ChatMessage[] =
      steers.length > 0 ? history.concat(steers.map((input): ChatMessage => ({ role: 'user', content: input }))) : history;
    logger.debug({ iteration, messages: messages.length, steers: steers.length }, 'calling the upstream model');
    // The tools of this moment: a tool the model was offered is the one that runs, even if the list changes meanwhile.
    const serverTools = offer(request.approvals !== undefined);
    const steered = steers.map((input): AgentEvent => ({ type: 'steered', input }));
    // Deltas pass straight through; only the turn's end (its last value) decides what comes next:
    // continueAfterTurn, where connect and merge held a subject and four subscribers per call.
    // Every model call's usage passes there too: the run's is summed on the way, not by a tap of its own.
    const call$ = callModel(request, messages, iteration, run.abort, serverTools).pipe(
      continueAfterTurn(afterTurn, (usage) => (run.usage = sumUsage(run.usage, usage))),
    );
    return steered.length > 0 ? concat(steered, call$) : call$;

    function afterTurn(event: TurnEnd): Observable<AgentEvent> {
      if (event.clientToolCalls.length > 0) {
        if (event.toolCalls.length > 0) {
          const deferred = event.toolCalls.map((call) => ({ id: call.id, name: call.function.name }));
          logger.info(
            { requestId: request.requestId, iteration, deferred },
            'deferred the server tool calls of a turn that also called client tools; none ran',
          );
        }
        // A call cut off by the token limit goes out as it is, with the reason that says so.
        return of({ type: 'finish', reason: event.finishReason === 'length' ? 'length' : 'tool_calls' });
      }
      if (event.toolCalls.length === 0) {
        // A steer that came while the model gave its last answer gets one more model call after it.
        if (run.steers.size === 0 || iteration >= maxIterations) return of({ type: 'finish', reason: toFinishReason(event.finishReason) });
        return converse(request, [...messages, { role: 'assistant', content: event.content }], iteration + 1, run);
      }
      if (iteration >= maxIterations) {
        const note = `\n\n[rxgate: stopped after ${maxIterations} model calls, the limit (maxIterations), while the model was still calling tools.]`;
        return of<AgentEvent[]>({ type: 'text', delta: note }, { type: 'finish', reason: 'length' });
      }
      const assistant: ChatMessage = {
        role: 'assistant',
        content: event.content === '' ? null : event.content,
        tool_calls: event.toolCalls,
      };
      return runTools(event.toolCalls, serverTools, run, (toolMessages) =>
        converse(request, [...messages, assistant, ...toolMessages], iteration + 1, run),
      );
    }
  }

  const serverToolNames = () => offer().tools.map((tool) => tool.name);
  const agent: Agent = {
    description: `LLM agent (${upstreamNames.join(', ')}, tools: ${serverToolNames().join(', ') || 'none'}${Array.isArray(tools) ? '' : ', and those its tool source adds'})`,
    get serverToolNames() {
      return serverToolNames();
    },
    models: caller.routeNames(),
    close: () => caller.close(),
    run(request, cancellation) {
      return createAbortableRun(
        cancellation,
        (abort) => {
          const [conflict] = clientToolConflicts(serverToolNames(), request.clientTools ?? []);
          if (conflict) {
            const message = `the client tool "${conflict.name}" (tools[${conflict.index}]) has the name of one of the agent's own tools; rename it`;
            return { events: throwError(() => new AgentError(message, 'tool_name_conflict')) };
          }
          const gate: ToolGate = {
            needsApproval: requireApproval,
            approvals: request.approvals,
            approvedAlways: new ApprovedAlways(),
            scheduler,
          };
          const steers = queueSteers(request.steers$);
          const state: RunState = { abort, gate, steers, trace: request.trace, usage: ZERO_USAGE };
          const resumed = callsToResume(request);
          // Called once per subscription already (createAbortableRun), so no defer of its own.
          const start$ =
            resumed.length > 0
              ? runTools(resumed, offer(), state, (toolMessages) => converse(request, [...request.messages, ...toolMessages], 1, state))
              : converse(request, request.messages, 1, state);
          // The steers' subscription lasts as long as the run; a run without steers has none to hold.
          const events$ = request.steers$
            ? using(
                () => steers.subscription,
                () => start$,
              )
            : start$;
          return {
            events: events$,
            interrupt: (reason) => logger.info({ requestId: request.requestId, reason, usage: state.usage }, 'llm run interrupted'),
          };
        },
        { logger },
      );
    },
  };
  return agent;
}
