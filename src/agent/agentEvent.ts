import type { ApprovalChoice, ApprovalResolver } from './approval.js';

/**
 * Why a run finished, in the vocabulary every protocol encoder maps from: `content_filter` is an
 * answer the upstream's filter stopped, which clients must not take for a whole one.
 */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/** Token counts of one model call; a run's usage is the sum of its usage events. */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
  /** Of the input tokens, those read from the upstream's prompt cache; absent when the upstream did not say. */
  readonly cachedInputTokens?: number;
  /** Of the output tokens, those spent reasoning; absent when the upstream did not say. */
  readonly reasoningTokens?: number;
  /** What the calls cost in USD, those without a price counted as nothing; absent when none had a price. */
  readonly costUsd?: number;
  /** Whether a priced call's tokens were counted by rxgate's tokenizer, its upstream having reported no usage. */
  readonly costEstimated?: boolean;
}

/**
 * What an agent run emits. Protocol-neutral: Chat Completions, the Responses API and run
 * events are encoders over this one stream.
 *
 * `tool_start` and `tool_end` report a tool the agent runs itself. `tool_call_delta` is a piece
 * of a call to a client tool, which the agent does not run: the run ends with
 * `finish` `tool_calls` (or `length` if the model was cut off mid-call) and the client runs it.
 * `index` numbers the client calls of the run from 0 (calls the agent runs take none); the first
 * delta of each call carries its `id` and `name`, later ones neither; `arguments` are the JSON
 * fragments in order (only a first delta may have none). The deltas are the whole story: a
 * non-streaming encoder rebuilds the calls with `assembleToolCalls`.
 *
 * ```
 * run:   -t-a-b-a-b-(uf|)    t = text, a/b = deltas of client calls 0 and 1, u = usage, f = finish tool_calls
 * ```
 */
export type AgentEvent =
  | { readonly type: 'text'; readonly delta: string }
  | { readonly type: 'reasoning'; readonly delta: string }
  /** The model declining to answer (OpenAI's `refusal`, above all with structured outputs): shown apart from text, never as it. */
  | { readonly type: 'refusal'; readonly delta: string }
  | {
      readonly type: 'tool_call_delta';
      readonly index: number;
      readonly id?: string;
      readonly name?: string;
      readonly arguments: string;
    }
  | {
      readonly type: 'tool_start';
      readonly callId: string;
      readonly name: string;
      readonly arguments: string;
      /** The MCP server the tool comes from and its name there; absent for rxgate's own tools. */
      readonly origin?: { readonly server: string; readonly tool: string };
    }
  | {
      /** A running tool's report of how far it has come (MCP progress); encoders may ignore it. */
      readonly type: 'tool_progress';
      readonly callId: string;
      readonly name: string;
      readonly progress: number;
      readonly total?: number;
      readonly message?: string;
    }
  | {
      readonly type: 'tool_end';
      readonly callId: string;
      readonly name: string;
      readonly result?: string;
      readonly error?: string;
      readonly durationMs: number;
    }
  | {
      /** A call of a tool that needs a person's approval; it waits (or the run ends, see `Approvals`). */
      readonly type: 'approval_required';
      readonly approvalId: string;
      readonly callId: string;
      readonly name: string;
      readonly arguments: string;
      /** When a waiting call is denied for want of an answer (ms since the epoch, by the agent's scheduler); absent when the run ends instead. */
      readonly expiresAt?: number;
      readonly origin?: { readonly server: string; readonly tool: string };
    }
  | {
      readonly type: 'approval_resolved';
      readonly approvalId: string;
      readonly callId: string;
      readonly name: string;
      readonly choice: ApprovalChoice;
      readonly reason?: string;
      readonly by: ApprovalResolver;
      readonly requestId?: string;
      /** ms since the epoch, by the agent's scheduler. */
      readonly at: number;
    }
  | {
      /** A person's message, added to the conversation just before this model call. */
      readonly type: 'steered';
      readonly input: string;
    }
  | { readonly type: 'usage'; readonly usage: Usage }
  | { readonly type: 'finish'; readonly reason: FinishReason };

export type AgentEventOf<K extends AgentEvent['type']> = Extract<AgentEvent, { type: K }>;
