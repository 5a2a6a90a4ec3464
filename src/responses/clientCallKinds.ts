import { isExecutedToolType, type ExecutedToolType } from '../openai/executedToolCalls.js';
import type { ResponseTool } from '../openai/responseObject.js';

/** How a call of one of the client's tools reaches it, when not as a plain `function_call`. */
export interface ClientCallKind {
  /**
   * `custom`: a `custom_tool_call` item carrying free-form `input`; a client-executed tool's type:
   * that tool's own call item (`shell_call`, ...); `function`: a `function_call`.
   */
  readonly item: 'function' | 'custom' | ExecutedToolType;
  /** The `namespace` tool the called one belongs to, named on its call item. */
  readonly namespace?: string;
}

/** The client's tools, by the name the model calls them, whose calls are not plain `function_call` items. */
export function clientCallKinds(tools: readonly ResponseTool[]): ReadonlyMap<string, ClientCallKind> {
  const kinds = new Map<string, ClientCallKind>();
  for (const tool of tools) {
    if (tool.type === 'custom') kinds.set(tool.name, { item: 'custom' });
    else if (isExecutedToolType(tool.type)) kinds.set(tool.type, { item: tool.type });
    else if (tool.type === 'namespace') {
      for (const member of tool.tools) kinds.set(member.name, { item: member.type, namespace: tool.name });
    }
  }
  return kinds;
}
