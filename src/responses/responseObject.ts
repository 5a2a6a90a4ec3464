/** The wire shapes of the OpenAI Responses API that rxgate produces. */
export type ResponseStatus = 'queued' | 'in_progress' | 'completed' | 'incomplete' | 'failed' | 'cancelled';
export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export interface OutputTextPart {
  readonly type: 'output_text';
  readonly text: string;
  readonly annotations: readonly never[];
}

export interface MessageItem {
  readonly id: string;
  readonly type: 'message';
  readonly status: ItemStatus;
  readonly role: 'assistant';
  readonly content: readonly OutputTextPart[];
}

/** A tool the agent called itself; `arguments` is the JSON the model wrote. */
export interface FunctionCallItem {
  readonly id: string;
  readonly type: 'function_call';
  readonly status: ItemStatus;
  readonly call_id: string;
  readonly name: string;
  readonly arguments: string;
}

export type OutputItem = MessageItem | FunctionCallItem;

export interface ResponseUsage {
  readonly input_tokens: number;
  readonly input_tokens_details: { readonly cached_tokens: number };
  readonly output_tokens: number;
  readonly output_tokens_details: { readonly reasoning_tokens: number };
  readonly total_tokens: number;
}

export interface ResponseObject {
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
  readonly parallel_tool_calls: boolean;
  readonly previous_response_id: string | null;
  readonly store: boolean;
  readonly text: { readonly format: { readonly type: 'text' } };
  readonly tool_choice: 'auto';
  readonly tools: readonly never[];
  readonly usage: ResponseUsage | null;
  readonly metadata: Record<string, string>;
}

/** What a response is known by before its run starts. */
export interface ResponseMeta {
  readonly id: string;
  /** Unix seconds. */
  readonly createdAt: number;
  readonly model: string;
  readonly instructions: string | null;
  readonly previousResponseId: string | null;
  readonly store: boolean;
  readonly background: boolean;
}

/** One streaming event: `type` is also the SSE event name; `sequence_number` counts from 0. */
export interface ResponseStreamEvent {
  readonly type: string;
  readonly sequence_number: number;
  readonly [field: string]: unknown;
}

export const TERMINAL_RESPONSE_EVENTS: ReadonlySet<string> = new Set(['response.completed', 'response.incomplete', 'response.failed']);
