import type { z } from 'zod';

/** How far a running tool has come, as the tool reports it (MCP progress notifications). */
export interface ToolProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** The MCP server a tool comes from, and the tool's name on that server. */
export interface ToolOrigin {
  readonly server: string;
  readonly tool: string;
}

/** What a running tool may use besides its arguments and its signal. */
export interface ToolRunContext {
  /** Reports progress; it reaches the run as a `tool_progress` event. */
  progress(update: ToolProgress): void;
  /** The W3C trace context headers of the call's span, for a tool that calls out (MCP servers get its `traceparent`). Default: none. */
  readonly traceHeaders?: Readonly<Record<string, string>>;
}

/**
 * Something the model may call. `parameters` is the zod schema of the arguments: it becomes the
 * JSON schema the model sees, and it validates what the model sends before `run` is called.
 * `run` returns the text the model reads; a thrown error becomes a tool error the model reads.
 */
export interface Tool<Schema extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly parameters: Schema;
  /**
   * The JSON schema the model sees, passed to the upstream as it is. For tools described in JSON
   * Schema in the first place (MCP tools); `parameters` must then accept exactly what it describes.
   * Default: the JSON schema generated from `parameters`.
   */
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  /** Where a tool that is not rxgate's own lives: its MCP server and its name there. Default: rxgate's own. */
  readonly origin?: ToolOrigin;
  /** Whether each call waits for a person's approval (an MCP server's `requireApproval`). Default: no, unless `RXGATE_REQUIRE_APPROVAL` names it. */
  readonly requiresApproval?: boolean;
  run(args: z.output<Schema>, signal: AbortSignal, context?: ToolRunContext): Promise<string>;
}

/** A tool with its argument type inferred from its schema. */
export function defineTool<Schema extends z.ZodType>(tool: Tool<Schema>): Tool {
  return tool as unknown as Tool;
}

/**
 * Where an agent finds the tools it may offer the model, read again for each run (MCP servers
 * come, go and change their tools while the gateway runs).
 */
export interface ToolSource {
  tools(): readonly Tool[];
}
