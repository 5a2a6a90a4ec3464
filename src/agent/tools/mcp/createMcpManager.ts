import { DEFAULTS } from '../../../config.js';
import type { ReadinessCheck } from '../../../health/readiness.js';
import { silentLogger, type Logger } from '../../../logger.js';
import { InterruptReason } from '../../interruptReason.js';
import type { Tool, ToolSource } from '../tool.js';
import { assignToolNames } from './assignToolNames.js';
import { createMcpServerConnection, type McpBackoff, type McpServerConnection } from './createMcpServerConnection.js';
import { createMcpTool } from './createMcpTool.js';
import type { McpServerConfig } from './mcpServerConfig.js';
import type { McpServerState } from './mcpServerState.js';

export interface McpManagerOptions {
  readonly logger?: Logger;
  /** Delays between attempts to reach a failed server. Default: 1 s, doubling, at most 60 s. */
  readonly backoff?: McpBackoff;
  /** Names no MCP tool may take (the built-in tools). Default: none. */
  readonly reservedNames?: Iterable<string>;
  /** Sent to servers in the handshake. Default: `{ name: 'rxgate', version: '0.1.0' }`. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /**
   * The largest message a server may send: a stdio line, a Streamable HTTP SSE event or JSON body.
   * Past it the connection is closed, its running calls fail saying so, and it is retried.
   * Default: `RXGATE_MCP_MAX_MESSAGE_BYTES`'s, 4 MiB.
   */
  readonly maxMessageBytes?: number;
}

/** Whether a server's `requireApproval` covers its tool `name`. */
function requiresApproval(setting: boolean | readonly string[], name: string): boolean {
  return typeof setting === 'boolean' ? setting : setting.includes(name);
}

/** The MCP servers of a deployment, kept connected, and their tools as rxgate tools. */
export interface McpManager extends ToolSource {
  /** The tools of every ready server, named `<server>__<tool>`; a new array whenever they change. */
  tools(): readonly Tool[];
  /** Which server and MCP tool a tool name stands for (for `mcp_call` items), or undefined for a tool that is not an MCP server's. */
  origin(name: string): { readonly server: string; readonly tool: string } | undefined;
  /** Each configured server's state, in config order (the `mcp` section of `GET /health/ready`). */
  states(): McpServerState[];
  /** Not ready while a server is still on its first attempt; a failed server does not hold readiness back. */
  readonly readiness: ReadinessCheck;
  /** The pids of the stdio servers running now. */
  pids(): number[];
  /** Cancels running calls on their servers, closes every session, ends every stdio child and waits for them. */
  close(reason?: string): Promise<void>;
}

/**
 * Starts every enabled server at once and keeps each connected on its own: a server that fails
 * does not hold back the others or the gateway, and is retried with backoff. The tool list is live:
 * read `tools()` when a run starts.
 *
 * @example
 * const mcp = createMcpManager(loadMcpConfig('mcp.json'), { logger, reservedNames: ['calculator'] });
 * const tools = [...builtins, ...mcp.tools()];
 * await mcp.close();
 */
export function createMcpManager(servers: readonly McpServerConfig[], options: McpManagerOptions = {}): McpManager {
  const logger = options.logger ?? silentLogger;
  const reserved = [...(options.reservedNames ?? [])];
  const clientInfo = options.clientInfo ?? { name: 'rxgate', version: '0.1.0' };
  let cached: { tools: readonly Tool[]; origins: Map<string, { server: string; tool: string }> } | undefined;
  const loggedRenames = new Set<string>();
  const connections: McpServerConnection[] = servers.map((config) =>
    createMcpServerConnection(config, {
      logger,
      backoff: options.backoff,
      clientInfo,
      maxMessageBytes: options.maxMessageBytes ?? DEFAULTS.mcpMaxMessageBytes,
      onChange: () => (cached = undefined),
    }),
  );

  function build(): NonNullable<typeof cached> {
    const listed = connections.flatMap((connection) => connection.tools().map((tool) => ({ connection, tool })));
    const { names, renames } = assignToolNames(
      listed.map(({ connection, tool }) => ({ server: connection.config.name, tool: tool.descriptor.name })),
      reserved,
    );
    for (const rename of renames) {
      const key = `${rename.server}\u0000${rename.tool}\u0000${rename.name}`;
      if (loggedRenames.has(key)) continue;
      loggedRenames.add(key);
      const message =
        rename.reason === 'collision'
          ? 'mcp tool renamed: its name was taken'
          : 'mcp tool renamed: its name has characters upstreams reject';
      logger.warn({ mcpServer: rename.server, tool: rename.tool, name: rename.name }, message);
    }
    const origins = new Map(
      listed.map(({ connection, tool }, index) => [names[index]!, { server: connection.config.name, tool: tool.descriptor.name }]),
    );
    const tools = listed.map(({ connection, tool }, index) =>
      createMcpTool({
        server: connection.config.name,
        descriptor: tool.descriptor,
        name: names[index]!,
        inputSchema: tool.inputSchema,
        parameters: tool.parameters,
        caller: tool.caller,
        timeoutMs: connection.config.timeoutMs,
        closing: connection.closing,
        requiresApproval: requiresApproval(connection.config.requireApproval, tool.descriptor.name),
      }),
    );
    return { tools, origins };
  }

  for (const connection of connections) connection.start();

  return {
    tools: () => (cached ??= build()).tools,
    origin: (name) => (cached ??= build()).origins.get(name),
    states: () => connections.map((connection) => connection.state()),
    readiness: {
      name: 'mcp',
      check: async () => {
        const connecting = connections
          .filter((connection) => connection.state().status === 'connecting')
          .map((connection) => connection.config.name);
        return connecting.length === 0 ? undefined : `still connecting to ${connecting.join(', ')}`;
      },
      details: () => connections.map((connection) => connection.state()),
    },
    pids: () => connections.map((connection) => connection.pid()).filter((pid) => pid !== undefined),
    async close(reason = InterruptReason.shuttingDown) {
      await Promise.all(connections.map((connection) => connection.close(reason)));
    },
  };
}
