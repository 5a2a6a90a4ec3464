import { z } from 'zod';
import type { Tool } from './tool.js';

/** A tool as the Chat Completions `tools` array describes it. */
export interface ToolDefinition {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description: string; readonly parameters: Record<string, unknown> };
}

/**
 * The `tools` of an upstream request, with JSON schemas generated from the tools' zod schemas, or
 * a tool's own `inputSchema` passed through unchanged.
 */
export function toToolDefinitions(tools: readonly Tool[]): ToolDefinition[] {
  return tools.map((tool) => {
    if (tool.inputSchema)
      return { type: 'function', function: { name: tool.name, description: tool.description, parameters: { ...tool.inputSchema } } };
    const parameters = z.toJSONSchema(tool.parameters) as Record<string, unknown>;
    // The dialect marker is noise to the model and some upstreams reject it.
    delete parameters.$schema;
    return { type: 'function', function: { name: tool.name, description: tool.description, parameters } };
  });
}
