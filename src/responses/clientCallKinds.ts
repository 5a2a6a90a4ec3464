import type { ResponseTool } from '../openai/responseObject.js';

/** How a call of one of the client's tools reaches it, when not as a plain `function_call`. */
export interface ClientCallKind {
  /** A `custom` tool: the call is a `custom_tool_call` item carrying free-form `input`. */
  readonly custom: boolean;
  /** The `namespace` tool the called one belongs to, named on its call item. */
  readonly namespace?: string;
}

/** The client's tools, by the name the model calls them, whose calls are not plain `function_call` items. */
export function clientCallKinds(tools: readonly ResponseTool[]): ReadonlyMap<string, ClientCallKind> {
  const kinds = new Map<string, ClientCallKind>();
  for (const tool of tools) {
    if (tool.type === 'custom') kinds.set(tool.name, { custom: true });
    if (tool.type !== 'namespace') continue;
    for (const member of tool.tools) kinds.set(member.name, { custom: member.type === 'custom', namespace: tool.name });
  }
  return kinds;
}
