import type { ClientTool } from './agent.js';

/** A client tool that takes the name of a tool the agent runs itself. */
export interface ClientToolConflict {
  /** Its position in the client's `tools`. */
  readonly index: number;
  readonly name: string;
}

/**
 * The client tools whose names the agent's own tools already use, in the client's order. A call
 * to such a name could not be told apart, so the request must be refused before the run starts
 * (the HTTP layer answers 400 naming `tools[index].function.name`).
 *
 * @example
 * clientToolConflicts(agent.serverToolNames ?? [], request.clientTools ?? []);
 * // [{ index: 1, name: 'calculator' }]
 */
export function clientToolConflicts(serverToolNames: readonly string[], clientTools: readonly ClientTool[]): ClientToolConflict[] {
  const taken = new Set(serverToolNames);
  return clientTools.flatMap((tool, index) => (taken.has(tool.function.name) ? [{ index, name: tool.function.name }] : []));
}
