import { calculatorTool } from './calculatorTool.js';
import { currentTimeTool } from './currentTimeTool.js';
import { noteTool } from './noteTool.js';
import type { Tool } from './tool.js';

/** The tools rxgate ships, by name (`note` is off unless `RXGATE_TOOLS` names it). */
export const BUILTIN_TOOLS: readonly Tool[] = [currentTimeTool, calculatorTool, noteTool];

export interface ToolRegistry {
  /** The tools named, in that order; throws naming the unknown ones and what is available. */
  select(names: readonly string[]): Tool[];
}

/**
 * The tools a deployment may switch on, looked up by name (so configuration can be a list of
 * names, e.g. `RXGATE_TOOLS=current_time,calculator`). Throws on a duplicate name.
 */
export function createToolRegistry(tools: readonly Tool[] = BUILTIN_TOOLS): ToolRegistry {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`rxgate: two tools are named "${tool.name}"; tool names must be unique`);
    byName.set(tool.name, tool);
  }
  return {
    select(names) {
      const unknown = names.filter((name) => !byName.has(name));
      if (unknown.length > 0) {
        throw new Error(
          `rxgate: unknown tool${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}; available: ${[...byName.keys()].join(', ')}`,
        );
      }
      return [...new Set(names)].map((name) => byName.get(name)!);
    },
  };
}

/** The built-in tools named in `names`, e.g. from `RXGATE_TOOLS`. */
export function selectTools(names: readonly string[], registry: ToolRegistry = createToolRegistry()): Tool[] {
  return registry.select(names);
}
