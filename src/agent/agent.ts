import type { Observable } from 'rxjs';
import type { AgentEvent } from './agentEvent.js';
import type { Cancellation } from './cancellation.js';

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

export interface AgentRequest {
  readonly messages: readonly ChatMessage[];
  /** The model the client asked for; agents may ignore it. */
  readonly model: string;
  /** The HTTP request's id, for agents to pass on (the LLM agent sends it upstream as `X-Request-Id`). */
  readonly requestId?: string;
}

/**
 * An agent is a function from a request to a cold stream of events: subscribing starts the
 * run, unsubscribing before it settles cancels it, and `cancellation` says why.
 */
export interface Agent {
  /** Shown at start-up and in logs. */
  readonly description: string;
  run(request: AgentRequest, cancellation: Cancellation): Observable<AgentEvent>;
}
