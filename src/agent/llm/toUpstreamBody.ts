import type { ChatMessage, ClientTool, ModelOptions, ToolChoice } from '../agent.js';
import type { ToolDefinition } from '../tools/toToolDefinitions.js';

/** What one model call asks the upstream for. */
export interface UpstreamCall {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  /** The agent's tools, then the client's. */
  readonly tools: readonly (ToolDefinition | ClientTool)[];
  readonly toolChoice?: ToolChoice;
  readonly parallelToolCalls?: boolean;
  readonly options?: ModelOptions;
  /** The most output tokens the target model gives (its route target's `maxOutputTokens`): a request for more is lowered to it. */
  readonly maxOutputTokens?: number;
}

/** The output limits of `options`, lowered to `cap` where they ask for more. */
function capOutput(options: ModelOptions, cap: number | undefined): ModelOptions {
  if (cap === undefined) return options;
  const lowered = (limit: number | null | undefined) => (typeof limit === 'number' && limit > cap ? cap : limit);
  return { ...options, max_tokens: lowered(options.max_tokens), max_completion_tokens: lowered(options.max_completion_tokens) };
}

// The fields the agent owns: options that name them (a JavaScript caller is not type-checked) are dropped.
const RESERVED = new Set(['model', 'messages', 'stream', 'stream_options', 'tools', 'tool_choice', 'parallel_tool_calls']);

/**
 * The JSON body of a streamed chat completion: the options verbatim, then the fields the agent
 * owns. `tool_choice` and `parallel_tool_calls` go only with tools, since upstreams refuse them alone;
 * `max_tokens` and `max_completion_tokens` above `maxOutputTokens` are lowered to it (Claude Code
 * asks for 32,000 or more, which a smaller model's server refuses).
 *
 * @example
 * toUpstreamBody({ model: 'm', messages, tools: [], options: { temperature: 0.2 } });
 * // { temperature: 0.2, model: 'm', messages, stream: true, stream_options: { include_usage: true } }
 */
export function toUpstreamBody({
  model,
  messages,
  tools,
  toolChoice,
  parallelToolCalls,
  options = {},
  maxOutputTokens,
}: UpstreamCall): Record<string, unknown> {
  const forwarded = Object.fromEntries(
    Object.entries(capOutput(options, maxOutputTokens)).filter(([name, value]) => !RESERVED.has(name) && value !== undefined),
  );
  const withTools = tools.length > 0;
  return {
    ...forwarded,
    model,
    messages,
    stream: true,
    stream_options: { include_usage: true },
    ...(withTools ? { tools } : {}),
    ...(withTools && toolChoice !== undefined ? { tool_choice: toolChoice } : {}),
    ...(withTools && parallelToolCalls !== undefined ? { parallel_tool_calls: parallelToolCalls } : {}),
  };
}
