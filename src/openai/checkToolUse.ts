import type { ClientTool, ToolChoice } from '../agent/agent.js';
import { clientToolConflicts } from '../agent/clientToolConflicts.js';
import { RequestError } from '../errors/RequestError.js';

export interface ToolUse {
  /** The tools the agent runs itself. */
  readonly serverToolNames: readonly string[];
  readonly clientTools: readonly ClientTool[];
  readonly toolChoice: ToolChoice | undefined;
}

/** Where the request carries what `checkToolUse` may name, as OpenAI's `param` says it. */
export interface ToolUseParams {
  /** The name of the client tool at `index` (`tools[1].function.name`). */
  toolName(index: number): string;
  /** The name in a `tool_choice` that names a function (`tool_choice.function.name`). */
  readonly toolChoiceName: string;
}

/**
 * Refuses, before the run starts, a request whose tools cannot work: a client tool that takes the
 * name of one of the agent's own tools (a call to it could not be told apart), a `tool_choice`
 * naming a tool that neither side has, or `required` when there is no tool at all.
 */
export function checkToolUse({ serverToolNames, clientTools, toolChoice }: ToolUse, params: ToolUseParams): void {
  const [conflict] = clientToolConflicts(serverToolNames, clientTools);
  if (conflict) {
    throw new RequestError(
      400,
      `the tool '${conflict.name}' has the name of one of the agent's own tools (${serverToolNames.join(', ')}); rename it`,
      'invalid_request_error',
      params.toolName(conflict.index),
      'tool_name_conflict',
    );
  }
  const names = new Set([...serverToolNames, ...clientTools.map((tool) => tool.function.name)]);
  if (typeof toolChoice === 'object' && !names.has(toolChoice.function.name)) {
    const known = [...names].join(', ') || 'none';
    throw new RequestError(
      400,
      `tool_choice names '${toolChoice.function.name}', which is not a tool of this request nor of the agent (tools: ${known})`,
      'invalid_request_error',
      params.toolChoiceName,
      'invalid_value',
    );
  }
  if (toolChoice === 'required' && names.size === 0) {
    throw new RequestError(
      400,
      "tool_choice 'required' needs a tool, and neither the request nor the agent has one",
      'invalid_request_error',
      'tool_choice',
      'invalid_value',
    );
  }
}
