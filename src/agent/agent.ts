import type { Observable } from 'rxjs';
import type { AgentEvent } from './agentEvent.js';
import type { Approvals } from './approval.js';
import type { Cancellation } from './cancellation.js';
import type { AttemptObserver } from '../upstream/AttemptObserver.js';
import type { RunTrace } from '../tracing/RunTrace.js';
import type { Payer } from '../money/Payer.js';

export type ContentPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image_url'; readonly image_url: { readonly url: string; readonly detail?: string } };

export interface ToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/** A conversation message in the Chat Completions shape, which every upstream speaks. */
export type ChatMessage =
  | { readonly role: 'system' | 'developer'; readonly content: string | readonly ContentPart[] }
  | { readonly role: 'user'; readonly content: string | readonly ContentPart[] }
  | {
      readonly role: 'assistant';
      readonly content: string | readonly ContentPart[] | null;
      readonly tool_calls?: readonly ToolCall[];
    }
  | { readonly role: 'tool'; readonly content: string | readonly ContentPart[]; readonly tool_call_id: string };

/**
 * A tool the client brings (an entry of the Chat Completions `tools` array). The agent never
 * runs it: when the model calls it, the run ends and the call goes to the client, which sends
 * the result back as a `tool` message in its next request.
 */
export interface ClientTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description?: string;
    /** A JSON Schema object, forwarded as the client sent it. */
    readonly parameters?: Readonly<Record<string, unknown>>;
    readonly strict?: boolean | null;
  };
}

/** The Chat Completions `tool_choice`. */
export type ToolChoice = 'auto' | 'none' | 'required' | { readonly type: 'function'; readonly function: { readonly name: string } };

/** The Chat Completions `response_format`. */
export type ResponseFormat =
  | { readonly type: 'text' }
  | { readonly type: 'json_object' }
  | {
      readonly type: 'json_schema';
      readonly json_schema: {
        readonly name: string;
        readonly description?: string;
        readonly schema?: Readonly<Record<string, unknown>>;
        readonly strict?: boolean | null;
      };
    };

/**
 * Sampling and output options of the client's request, under their Chat Completions names.
 * The HTTP layer validates them; an agent that calls a model forwards them verbatim.
 */
export interface ModelOptions {
  readonly temperature?: number | null;
  readonly top_p?: number | null;
  readonly max_tokens?: number | null;
  readonly max_completion_tokens?: number | null;
  readonly stop?: string | readonly string[] | null;
  readonly seed?: number | null;
  readonly presence_penalty?: number | null;
  readonly frequency_penalty?: number | null;
  readonly logit_bias?: Readonly<Record<string, number>> | null;
  readonly user?: string;
  readonly response_format?: ResponseFormat;
  readonly reasoning_effort?: string | null;
  readonly verbosity?: string | null;
  readonly metadata?: Readonly<Record<string, string>> | null;
  /** OpenAI's prompt caching: requests with one key share a cache; how long the cache is kept. */
  readonly prompt_cache_key?: string | null;
  readonly prompt_cache_retention?: string | null;
}

export interface AgentRequest {
  readonly messages: readonly ChatMessage[];
  /** The model the client asked for; agents may ignore it. */
  readonly model: string;
  /** The HTTP request's id, for agents to pass on (the LLM agent sends it upstream as `X-Request-Id`). */
  readonly requestId?: string;
  /**
   * The client's own tools, offered to the model next to the agent's. A name the agent's tools
   * already use is refused (`clientToolConflicts` finds them before the run starts).
   */
  readonly clientTools?: readonly ClientTool[];
  /** The client's `tool_choice`, over the agent's tools and the client's together. */
  readonly toolChoice?: ToolChoice;
  /** The client's `parallel_tool_calls`. */
  readonly parallelToolCalls?: boolean;
  /** The client's sampling and output options. */
  readonly options?: ModelOptions;
  /** How calls of tools that need approval get it. Default: none, and such tools are not offered to the model. */
  readonly approvals?: Approvals;
  /**
   * Messages a person adds while the run goes on (hot). Each is taken, as a user message, at the
   * next model call: after the tool calls in flight have ended, never in the middle of a model's answer.
   */
  readonly steers$?: Observable<string>;
  /** Told of this request's upstream attempts, besides the agent's own observer (the `x-rxgate-upstream` header). */
  readonly attemptObserver?: AttemptObserver;
  /** The span the run's spans are children of (the request's, then the run's own). Default: none, and no spans. */
  readonly trace?: RunTrace;
  /** Whom its model calls are spent for: the usage ledger's rows name it. Default: nobody. */
  readonly payer?: Payer;
}

/**
 * An agent is a function from a request to a cold stream of events: subscribing starts the
 * run, unsubscribing before it settles cancels it, and `cancellation` says why.
 */
export interface Agent {
  /** Shown at start-up and in logs. */
  readonly description: string;
  /** The names of the tools the agent runs itself, which a client tool may not reuse. Default: none. */
  readonly serverToolNames?: readonly string[];
  /** The model names it answers to (a routes file's routes); `*` stands for any. Default: any. */
  readonly models?: readonly string[];
  run(request: AgentRequest, cancellation: Cancellation): Observable<AgentEvent>;
  /** Releases what it holds across runs (the upstreams' connection pools); called once, at shutdown, after the runs ended. Default: nothing to release. */
  close?(): Promise<void>;
}
