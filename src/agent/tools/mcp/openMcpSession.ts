import { Client, SdkError, type Transport } from '@modelcontextprotocol/client';
import type { Logger } from '../../../logger.js';
import { BoundedStdioTransport } from './BoundedStdioTransport.js';
import { CancellingHttpTransport } from './CancellingHttpTransport.js';
import { createLineSplitter } from './createLineSplitter.js';
import { describeMcpFailure } from './describeMcpFailure.js';
import type { McpToolCaller } from './createMcpTool.js';
import { limitResponseBodies } from './limitResponseBodies.js';
import { listMcpTools, type McpToolListing } from './listMcpTools.js';
import { McpMessageTooLargeError } from './McpMessageTooLargeError.js';
import { redactSecrets } from '../../../errors/redactSecrets.js';
import type { McpServerConfig } from './mcpServerConfig.js';

/** One live connection to an MCP server. */
export interface McpSession {
  /** The stdio server's process id; undefined for HTTP. */
  readonly pid: number | undefined;
  /** Calls the server's tools; a call that finds the connection gone ends the session. */
  readonly caller: McpToolCaller;
  /** Resolves with why the connection ended, when it ends by itself (a crash, a network failure); never when `close` ends it. */
  readonly lost: Promise<string>;
  listTools(): Promise<McpToolListing>;
  /** Ends the session: an HTTP session is deleted on the server, a stdio child is ended (stdin closed, then SIGTERM, then SIGKILL) and waited for. */
  close(): Promise<void>;
}

export interface OpenMcpSessionOptions {
  readonly logger: Logger;
  /** Aborts the handshake. */
  readonly signal: AbortSignal;
  /** Called when the server says its tool list changed. */
  readonly onToolsChanged: () => void;
  /** Sent to the server in the handshake. */
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** Secrets of the server's entry, kept out of every message. */
  readonly secrets: readonly string[];
  /** The largest message the server may send (`RXGATE_MCP_MAX_MESSAGE_BYTES`); past it the connection is closed. */
  readonly maxMessageBytes: number;
}

const STDERR_LINES_KEPT = 20;
const STDERR_LINE_BYTES = 4096;
// Starting a server may mean downloading it first (npx -y ...), far slower than any tool call.
const MIN_SETUP_TIMEOUT_MS = 60_000;
const SESSION_DELETE_TIMEOUT_MS = 2000;
// What rxgate acts on; anything else a server notifies (log lines, resource updates) is dropped unread.
const NOTIFICATIONS = new Set(['notifications/progress', 'notifications/cancelled', 'notifications/tools/list_changed']);

function createTransport(server: McpServerConfig, maxMessageBytes: number): Transport & { readonly pid?: number | null } {
  if (server.transport === 'stdio') {
    return new BoundedStdioTransport({
      command: server.command,
      args: server.args,
      env: server.env,
      cwd: server.cwd,
      maxMessageBytes,
      notifications: NOTIFICATIONS,
    });
  }
  const transport: CancellingHttpTransport = new CancellingHttpTransport(new URL(server.url), {
    requestInit: { headers: { ...server.headers } },
    fetch: limitResponseBodies(maxMessageBytes, (error) => {
      transport.onerror?.(error);
      void transport.close();
    }),
  });
  return transport;
}

/** Resolves once the process is gone (it may outlive the SDK's close by a moment after a SIGKILL). */
async function waitForExit(pid: number, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Connects to one MCP server: spawns a stdio server or opens a Streamable HTTP session, runs the
 * MCP handshake (bounded by `signal` and by 60 s, or the server's `timeoutMs` if longer), and
 * subscribes to its tool list changes. A failed handshake leaves nothing behind: the child, if
 * one started, is ended. The server's stderr is logged at debug, and its last lines with a
 * failure at warn, with the entry's secrets redacted.
 */
export async function openMcpSession(server: McpServerConfig, options: OpenMcpSessionOptions): Promise<McpSession> {
  const { logger, signal, clientInfo, secrets } = options;
  const setupTimeoutMs = Math.max(server.timeoutMs, MIN_SETUP_TIMEOUT_MS);
  const transport = createTransport(server, options.maxMessageBytes);
  const stderrTail: string[] = [];
  if (transport instanceof BoundedStdioTransport) {
    const onLine = (bytes: Buffer) => {
      // A server may print its own configuration: its entry's secrets must not reach the log through it.
      const line = redactSecrets(bytes.toString('utf8').replace(/\r$/, ''), secrets);
      logger.debug({ stderr: line }, 'mcp server stderr');
      stderrTail.push(line);
      if (stderrTail.length > STDERR_LINES_KEPT) stderrTail.shift();
    };
    // Truncated: an endless stderr line is no more a reason to grow than an endless message.
    const lines = createLineSplitter(STDERR_LINE_BYTES, 'truncate');
    transport.stderr.on('data', (chunk: Buffer) => lines.push(chunk).forEach(onLine));
    transport.stderr.on('end', () => {
      const last = lines.rest();
      if (last) onLine(last);
    });
  }
  const client = new Client({ ...clientInfo }, { capabilities: {} });
  let closing = false;
  let declareLost!: (reason: string) => void;
  const lost = new Promise<string>((resolve) => {
    declareLost = (reason) => {
      if (closing) return;
      closing = true;
      if (stderrTail.length > 0) logger.warn({ stderr: stderrTail.join('\n') }, 'mcp server stderr before the connection was lost');
      resolve(reason);
    };
  });
  // Set when the transport closed the connection because the server sent too much: the reason of every failure after it.
  let tooLarge: McpMessageTooLargeError | undefined;
  client.onclose = () =>
    declareLost(tooLarge?.message ?? (server.transport === 'stdio' ? 'the server process exited' : 'the connection closed'));
  client.onerror = (error) => {
    if (error instanceof McpMessageTooLargeError) {
      if (!tooLarge) logger.error({ limit: error.limit }, 'mcp server sent a message over RXGATE_MCP_MAX_MESSAGE_BYTES; connection closed');
      tooLarge ??= error;
      return;
    }
    // Transport noise (a dropped listening stream the SDK reconnects); failures that matter reject a request.
    logger.debug({ err: error.message }, 'mcp client error');
  };
  client.setNotificationHandler('notifications/tools/list_changed', () => options.onToolsChanged());

  const close = async () => {
    closing = true;
    const pid = transport.pid ?? undefined;
    if (transport instanceof CancellingHttpTransport && transport.sessionId) {
      // The cancellations of running calls first: after the DELETE the server no longer knows those calls.
      const sessionEnded = transport.cancellationsSent().then(() => transport.terminateSession());
      await Promise.race([sessionEnded.catch(() => {}), new Promise((resolve) => setTimeout(resolve, SESSION_DELETE_TIMEOUT_MS).unref())]);
    }
    await client.close().catch((error: unknown) => logger.debug({ err: (error as Error).message }, 'mcp client close failed'));
    if (pid !== undefined) await waitForExit(pid, 2000);
  };

  try {
    await client.connect(transport, { timeout: setupTimeoutMs, signal });
  } catch (error) {
    await close();
    if (stderrTail.length > 0) logger.warn({ stderr: stderrTail.join('\n') }, 'mcp server stderr before the handshake failed');
    throw new Error(describeMcpFailure(server, error, secrets, 'handshake').reason, { cause: error });
  }
  const pid = transport.pid ?? undefined;

  const caller: McpToolCaller = {
    async callTool(params, callOptions) {
      try {
        return await client.callTool(params, callOptions);
      } catch (error) {
        // Streamable HTTP has no connection to lose: a server that went away shows as a failed request.
        if (tooLarge && !callOptions.signal.aborted) throw new Error(tooLarge.message, { cause: error });
        const failure = describeMcpFailure(server, error, secrets, 'call');
        if (!failure.lost || callOptions.signal.aborted) throw error;
        declareLost(failure.reason);
        // The SDK's own errors are told apart by the tool; anything else reads better as the reason.
        throw error instanceof SdkError ? error : new Error(failure.reason, { cause: error });
      }
    },
  };
  return { pid, caller, lost, close, listTools: () => listMcpTools(client, { timeout: setupTimeoutMs, signal }) };
}
