/** Why a run finished, in the vocabulary every protocol encoder maps from. */
export type FinishReason = 'stop' | 'length' | 'tool_calls';

/** Token counts of one model call; a run's usage is the sum of its usage events. */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

/**
 * What an agent run emits. Protocol-neutral: Chat Completions, the Responses API and run
 * events are encoders over this one stream.
 */
export type AgentEvent =
  | { readonly type: 'text'; readonly delta: string }
  | { readonly type: 'reasoning'; readonly delta: string }
  | {
      readonly type: 'tool_start';
      readonly callId: string;
      readonly name: string;
      readonly arguments: string;
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
  | { readonly type: 'usage'; readonly usage: Usage }
  | { readonly type: 'finish'; readonly reason: FinishReason };

export type AgentEventOf<K extends AgentEvent['type']> = Extract<AgentEvent, { type: K }>;
