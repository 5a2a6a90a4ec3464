import { concat, connect, defer, filter, map, merge, of, type Observable, type OperatorFunction } from 'rxjs';
import type { ToolCall } from '../agent.js';
import type { AgentEvent, Usage } from '../agentEvent.js';
import { createToolCallAssembler } from './createToolCallAssembler.js';
import type { UpstreamChunk } from './upstreamChunk.js';

/** The last value of a model call: what the assistant said and asked for, and why it stopped. */
export interface TurnEnd {
  readonly type: 'turn_end';
  readonly content: string;
  readonly toolCalls: readonly ToolCall[];
  readonly finishReason: string | null;
}

export type TurnEvent = AgentEvent | TurnEnd;

function toUsage(usage: NonNullable<UpstreamChunk['usage']>): Usage {
  const inputTokens = usage.prompt_tokens ?? 0;
  const outputTokens = usage.completion_tokens ?? 0;
  return { inputTokens, outputTokens, totalTokens: usage.total_tokens ?? inputTokens + outputTokens };
}

/**
 * Turns the chunks of one model call into agent events as they arrive (text and reasoning
 * deltas), then one `usage` event for the call and a `turn_end` with the assembled tool calls.
 * Usage is taken from the last chunk that carries it, since some upstreams repeat a running
 * total on every chunk: the one event per call stays additive.
 *
 * ```
 * source:   -c--r--t--t-|           c = content, r = reasoning, t = tool-call fragment
 * result:   -T--R-------(UE|)       U = usage, E = turn_end with the tool calls
 * ```
 */
export function toTurnEvents(): OperatorFunction<UpstreamChunk, TurnEvent> {
  return (chunks$) =>
    defer(() => {
      const toolCalls = createToolCallAssembler();
      let content = '';
      let finishReason: string | null = null;
      let usage: Usage | undefined;

      // rxgate asks for one choice, so a chunk carries at most one reasoning and one content delta:
      // two branches over the same chunks (reasoning first) emit them with no inner Observable per chunk.
      function deltasOf(chunk$: Observable<UpstreamChunk>): Observable<AgentEvent> {
        return merge(
          chunk$.pipe(
            map((chunk): AgentEvent | undefined => {
              if (chunk.usage) usage = toUsage(chunk.usage);
              const delta = chunk.choices?.[0]?.delta;
              const reasoning = delta?.reasoning_content ?? delta?.reasoning;
              return reasoning ? { type: 'reasoning', delta: reasoning } : undefined;
            }),
            filter((event) => event !== undefined),
          ),
          chunk$.pipe(
            map((chunk): AgentEvent | undefined => {
              const choice = chunk.choices?.[0];
              if (!choice) return undefined;
              if (choice.delta?.tool_calls) toolCalls.add(choice.delta.tool_calls);
              if (choice.finish_reason) finishReason = choice.finish_reason;
              const text = choice.delta?.content;
              if (!text) return undefined;
              content += text;
              return { type: 'text', delta: text };
            }),
            filter((event) => event !== undefined),
          ),
        );
      }

      const end$ = defer(() => {
        const turnEnd: TurnEnd = { type: 'turn_end', content, toolCalls: toolCalls.calls(), finishReason };
        return usage ? of<TurnEvent[]>({ type: 'usage', usage }, turnEnd) : of(turnEnd);
      });
      return concat(chunks$.pipe(connect(deltasOf)), end$);
    });
}
