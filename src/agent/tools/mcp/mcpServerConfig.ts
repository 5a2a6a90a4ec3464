/** What every server entry may say besides how to reach the server. */
interface McpServerCommon {
  /** The key of the entry in `mcpServers`; tool names start with it. */
  readonly name: string;
  /** The longest one tool call may take (the SDK then cancels it on the server). Default 60 000 ms. */
  readonly timeoutMs: number;
  /** The server's tools the model may call, by their MCP names. Default: all of them. */
  readonly tools?: readonly string[];
  /** Whose calls wait for a person's approval: `true` every tool of the server, or a list of its tool names (MCP names). Default: none. */
  readonly requireApproval: boolean | readonly string[];
  /** Default true (`"disabled": true`, as some hosts write it, also switches a server off). */
  readonly enabled: boolean;
}

/** A server rxgate starts as a child process and talks to over its stdin and stdout. */
export interface McpStdioServerConfig extends McpServerCommon {
  readonly transport: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** Added to the few variables every server gets (PATH, HOME, ...); rxgate's own environment is not passed on. Never logged. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** A server rxgate reaches over Streamable HTTP. */
export interface McpHttpServerConfig extends McpServerCommon {
  readonly transport: 'http';
  readonly url: string;
  /** Sent with every request (typically `Authorization`). Never logged. */
  readonly headers: Readonly<Record<string, string>>;
}

export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** The values of a server entry that must never reach a log line or a health answer. */
export function secretsOf(server: McpServerConfig): string[] {
  const values = Object.values(server.transport === 'stdio' ? server.env : server.headers);
  return values.filter((value) => value.length >= 4);
}
