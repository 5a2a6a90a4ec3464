/** The wire shapes of the OpenAI Responses API that rxgate produces. */
import type { UsageCost } from '../agent/usageCost.js';
import type { MappableHostedTool } from '../config.js';
import type { ExecutedCallItem, ExecutedToolType } from './executedToolCalls.js';

export type ResponseStatus = 'queued' | 'in_progress' | 'completed' | 'incomplete' | 'failed' | 'cancelled';
export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';
/** A tool call the agent ran can also have failed. */
export type ToolItemStatus = ItemStatus | 'failed';

export interface OutputTextPart {
  readonly type: 'output_text';
  readonly text: string;
  readonly annotations: readonly never[];
}

/** The model declining to answer, in place of text. */
export interface RefusalPart {
  readonly type: 'refusal';
  readonly refusal: string;
}

export type MessagePart = OutputTextPart | RefusalPart;

export interface MessageItem {
  readonly id: string;
  readonly type: 'message';
  readonly status: ItemStatus;
  readonly role: 'assistant';
  readonly content: readonly MessagePart[];
}

/**
 * A call of one of the client's function tools, which the client runs and answers with a
 * `function_call_output` item; `arguments` is the JSON the model wrote.
 */
export interface FunctionCallItem {
  readonly id: string;
  readonly type: 'function_call';
  readonly status: ItemStatus;
  readonly call_id: string;
  readonly name: string;
  readonly arguments: string;
  /** The group of the client's `namespace` tool the called function belongs to. */
  readonly namespace?: string;
}

/**
 * A call of one of the client's `custom` tools: free-form `input` text, answered with a
 * `custom_tool_call_output` item.
 */
export interface CustomToolCallItem {
  readonly id: string;
  readonly type: 'custom_tool_call';
  readonly status: ItemStatus;
  readonly call_id: string;
  readonly name: string;
  readonly input: string;
  readonly namespace?: string;
}

/** The label of rxgate's own tools on the `mcp_call` items that report them. */
export const SERVER_LABEL = 'rxgate';

/**
 * A tool the agent ran itself, reported as OpenAI reports the hosted tools it runs: clients show
 * it, and none takes it for a call it should answer.
 */
export interface McpCallItem {
  readonly id: string;
  readonly type: 'mcp_call';
  readonly status: ToolItemStatus;
  readonly server_label: string;
  readonly name: string;
  readonly arguments: string;
  readonly output: string | null;
  readonly error: string | null;
}

/** A call of the server tool an operator put in place of OpenAI's hosted web search (`RXGATE_HOSTED_TOOLS_MAP`). */
export interface WebSearchCallItem {
  readonly id: string;
  readonly type: 'web_search_call';
  readonly status: 'in_progress' | 'searching' | 'completed' | 'failed';
  /** What was searched for, as the tool's arguments name it; `query` too, which older SDKs read. */
  readonly action: { readonly type: 'search'; readonly queries: readonly string[]; readonly query?: string };
}

/** A call of the server tool an operator put in place of OpenAI's hosted file search. */
export interface FileSearchCallItem {
  readonly id: string;
  readonly type: 'file_search_call';
  readonly status: 'in_progress' | 'searching' | 'completed' | 'incomplete' | 'failed';
  readonly queries: readonly string[];
  /** The results go to the model only. */
  readonly results: null;
}

export type HostedCallItem = WebSearchCallItem | FileSearchCallItem;

export interface SummaryTextPart {
  readonly type: 'summary_text';
  readonly text: string;
}

/** The model's reasoning, as the text of one summary part (which the SDKs read as reasoning). */
export interface ReasoningItem {
  readonly id: string;
  readonly type: 'reasoning';
  readonly status: ItemStatus;
  readonly summary: readonly SummaryTextPart[];
}

/**
 * A call of a tool that needs a person's approval, which did not run: the response ends with it,
 * and the client answers with an `mcp_approval_response` input item in its next request.
 */
export interface McpApprovalRequestItem {
  readonly id: string;
  readonly type: 'mcp_approval_request';
  readonly server_label: string;
  readonly name: string;
  readonly arguments: string;
}

export type OutputItem =
  | MessageItem
  | FunctionCallItem
  | CustomToolCallItem
  | ExecutedCallItem
  | McpCallItem
  | HostedCallItem
  | ReasoningItem
  | McpApprovalRequestItem;

/** A client's function tool in the Responses API's shape. */
export interface ResponseFunctionTool {
  readonly type: 'function';
  readonly name: string;
  readonly description?: string | null;
  readonly parameters: Readonly<Record<string, unknown>> | null;
  readonly strict: boolean | null;
}

/** A client's tool that takes free-form text rather than JSON, optionally in a grammar. */
export interface ResponseCustomTool {
  readonly type: 'custom';
  readonly name: string;
  readonly description?: string;
  readonly format?:
    { readonly type: 'text' } | { readonly type: 'grammar'; readonly syntax: 'lark' | 'regex'; readonly definition: string };
}

/** A group of a client's tools; a call of one of them names the group as its `namespace`. */
export interface ResponseNamespaceTool {
  readonly type: 'namespace';
  readonly name: string;
  readonly description: string;
  readonly tools: readonly (ResponseFunctionTool | ResponseCustomTool)[];
}

/** One of the tools the client executes whose calls are items of their own (`local_shell_call`, ...). */
export interface ResponseExecutedTool {
  readonly type: ExecutedToolType;
}

/** A tool of the client's that rxgate offers the model: the client runs its calls. */
/** A hosted tool a server tool stands in for (`RXGATE_HOSTED_TOOLS_MAP`), echoed by its type. */
export interface ResponseHostedTool {
  readonly type: MappableHostedTool;
}

export type ResponseTool = ResponseFunctionTool | ResponseCustomTool | ResponseNamespaceTool | ResponseExecutedTool | ResponseHostedTool;

export type ResponseToolChoice =
  | 'auto'
  | 'none'
  | 'required'
  | { readonly type: 'function'; readonly name: string }
  | { readonly type: 'custom'; readonly name: string }
  | { readonly type: MappableHostedTool };

export type ResponseTextFormat =
  | { readonly type: 'text' }
  | { readonly type: 'json_object' }
  | {
      readonly type: 'json_schema';
      readonly name: string;
      readonly schema: Readonly<Record<string, unknown>>;
      readonly description?: string;
      readonly strict?: boolean | null;
    };

/** What a response object says of the request that made it: OpenAI echoes these. */
export interface ResponseEcho {
  /** The client's tools rxgate offered the model (hosted tools it left out are not among them). */
  readonly tools: readonly ResponseTool[];
  readonly tool_choice: ResponseToolChoice;
  readonly parallel_tool_calls: boolean;
  readonly text: { readonly format: ResponseTextFormat; readonly verbosity?: string };
  readonly temperature: number | null;
  readonly top_p: number | null;
  readonly max_output_tokens: number | null;
  readonly reasoning: { readonly effort: string | null; readonly summary: string | null };
  readonly metadata: Readonly<Record<string, string>>;
  /** What the client said of itself (Codex: its session, turn and installation), kept with the response when it sent any. */
  readonly client_metadata?: Readonly<Record<string, string>>;
}

/** The echo of a request that asked for nothing in particular. */
export const DEFAULT_ECHO: ResponseEcho = {
  tools: [],
  tool_choice: 'auto',
  parallel_tool_calls: true,
  text: { format: { type: 'text' } },
  temperature: null,
  top_p: null,
  max_output_tokens: null,
  reasoning: { effort: null, summary: null },
  metadata: {},
};

export interface ResponseUsage extends UsageCost {
  readonly input_tokens: number;
  readonly input_tokens_details: { readonly cached_tokens: number };
  readonly output_tokens: number;
  readonly output_tokens_details: { readonly reasoning_tokens: number };
  readonly total_tokens: number;
}

export interface ResponseObject extends ResponseEcho {
  readonly id: string;
  readonly object: 'response';
  readonly created_at: number;
  readonly status: ResponseStatus;
  readonly background: boolean;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly incomplete_details: { readonly reason: string } | null;
  readonly instructions: string | null;
  readonly model: string;
  readonly output: readonly OutputItem[];
  readonly previous_response_id: string | null;
  /** The conversation the response continued and was appended to (`conversation` on the request). */
  readonly conversation: { readonly id: string } | null;
  readonly store: boolean;
  readonly usage: ResponseUsage | null;
}

/** What a response is known by before its run starts. */
export interface ResponseMeta {
  readonly id: string;
  /** Unix seconds. */
  readonly createdAt: number;
  readonly model: string;
  readonly instructions: string | null;
  readonly previousResponseId: string | null;
  /** The conversation's id, when the request named one. Default: none. */
  readonly conversation?: string | null;
  readonly store: boolean;
  readonly background: boolean;
  /** What the response echoes of its request. Default: `DEFAULT_ECHO`. */
  readonly echo?: ResponseEcho;
  /** The server tools standing in for the request's hosted tools, by the name the model calls them: the call item each is reported as. Default: none. */
  readonly hostedCalls?: Readonly<Record<string, HostedCallItem['type']>>;
}

/** One streaming event: `type` is also the SSE event name; `sequence_number` counts from 0. */
export interface ResponseStreamEvent {
  readonly type: string;
  readonly sequence_number: number;
  readonly [field: string]: unknown;
}

export const TERMINAL_RESPONSE_EVENTS: ReadonlySet<string> = new Set(['response.completed', 'response.incomplete', 'response.failed']);
