import { setTimeout as sleep } from 'node:timers/promises';
import type { Tool as McpToolDescriptor } from '@modelcontextprotocol/client';
import type { z } from 'zod';
import type { Logger } from '../../../logger.js';
import type { McpToolCaller } from './createMcpTool.js';
import type { McpServerConfig } from './mcpServerConfig.js';
import { secretsOf } from './mcpServerConfig.js';
import type { McpServerState } from './mcpServerState.js';
import { openMcpSession, type McpSession } from './openMcpSession.js';
import { prepareToolSchema } from './prepareToolSchema.js';

/** Delays between attempts to reach a server that failed: `initialMs`, doubling, at most `maxMs`. */
export interface McpBackoff {
  /** Default 1000 ms. */
  readonly initialMs?: number;
  /** Default 60 000 ms. */
  readonly maxMs?: number;
}

/** A tool of a ready server, checked and prepared, not yet named. */
export interface McpListedTool {
  readonly descriptor: McpToolDescriptor;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly parameters: z.ZodType;
  readonly caller: McpToolCaller;
}

export interface McpServerConnection {
  readonly config: McpServerConfig;
  state(): McpServerState;
  /** The tools the model may call now: none unless the server is ready. */
  tools(): readonly McpListedTool[];
  /** The stdio child's pid while one runs. */
  pid(): number | undefined;
  /** Aborted once `close` is called; running calls are cancelled with it. */
  readonly closing: AbortSignal;
  /** Starts connecting; returns at once. */
  start(): void;
  /** Cancels running calls on the server, ends the session (and the stdio child), stops retrying. */
  close(reason: string): Promise<void>;
}

export interface McpServerConnectionOptions {
  readonly logger: Logger;
  readonly backoff?: McpBackoff;
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** The largest message the server may send; past it the connection is closed (and retried). */
  readonly maxMessageBytes: number;
  /** Called when the state or the tools change. */
  readonly onChange: () => void;
}

const now = () => new Date().toISOString();
// A server that keeps saying its list changed is listed again at most this often.
const MIN_REFRESH_INTERVAL_MS = 1000;

/**
 * Keeps one MCP server connected: connects, lists its tools (applying the config's allow-list,
 * leaving out tools it cannot offer with a warning), refreshes them on `list_changed`, and after a
 * failed attempt or a lost connection waits (with exponential backoff) and tries again, for as
 * long as the gateway runs. A failing server never throws out of here.
 */
export function createMcpServerConnection(config: McpServerConfig, options: McpServerConnectionOptions): McpServerConnection {
  const { backoff = {}, clientInfo, maxMessageBytes, onChange } = options;
  const { initialMs = 1000, maxMs = 60_000 } = backoff;
  const logger = options.logger.child({ mcpServer: config.name });
  const secrets = secretsOf(config);
  const closing = new AbortController();
  let state: McpServerState = {
    name: config.name,
    transport: config.transport,
    status: config.enabled ? 'connecting' : 'disabled',
    since: now(),
  };
  let tools: readonly McpListedTool[] = [];
  let session: McpSession | undefined;
  let supervising: Promise<void> | undefined;
  const closed = new Promise<string>((resolve) => closing.signal.addEventListener('abort', () => resolve('closing'), { once: true }));

  function setState(next: Omit<McpServerState, 'name' | 'transport' | 'since'>): void {
    state = { name: config.name, transport: config.transport, since: now(), ...next };
    onChange();
  }

  function setTools(next: readonly McpListedTool[]): void {
    tools = next;
    if (state.status === 'ready') state = { ...state, tools: next.length };
    onChange();
  }

  async function listTools(current: McpSession): Promise<McpListedTool[]> {
    const listing = await current.listTools();
    for (const { name, problem } of listing.invalid) logger.warn({ tool: name, problem }, 'mcp tool left out');
    const allowed = config.tools ? new Set(config.tools) : undefined;
    const offered = allowed ? listing.tools.filter((tool) => allowed.has(tool.name)) : listing.tools;
    if (allowed) {
      const missing = [...allowed].filter((name) => !listing.tools.some((tool) => tool.name === name));
      if (missing.length > 0) logger.warn({ missing }, 'the tools allow-list names tools the server does not have');
    }
    const prepared: McpListedTool[] = [];
    for (const descriptor of offered) {
      const schema = prepareToolSchema(descriptor.inputSchema);
      if (!schema.ok) logger.warn({ tool: descriptor.name, problem: schema.problem }, 'mcp tool left out');
      else prepared.push({ descriptor, inputSchema: schema.inputSchema, parameters: schema.parameters, caller: current.caller });
    }
    return prepared;
  }

  // One refresh at a time, at most one a second; notifications that arrive meanwhile are folded into one more refresh.
  let refreshing: Promise<void> | undefined;
  let refreshAgain = false;
  function refresh(current: McpSession): void {
    if (refreshing) {
      refreshAgain = true;
      return;
    }
    refreshing = (async () => {
      do {
        refreshAgain = false;
        const started = performance.now();
        try {
          const next = await listTools(current);
          if (session === current) {
            setTools(next);
            logger.info({ tools: next.map((tool) => tool.descriptor.name) }, 'mcp tool list changed');
          }
        } catch (error) {
          logger.warn({ err: (error as Error).message }, 'mcp tool list refresh failed; keeping the previous list');
        }
        if (refreshAgain && session === current) {
          const waitMs = started + MIN_REFRESH_INTERVAL_MS - performance.now();
          if (waitMs > 0) await sleep(waitMs, undefined, { signal: closing.signal, ref: false }).catch(() => {});
        }
      } while (refreshAgain && session === current && !closing.signal.aborted);
      refreshing = undefined;
    })();
  }

  async function connectOnce(): Promise<string> {
    let opened: McpSession | undefined;
    try {
      opened = await openMcpSession(config, {
        logger,
        signal: closing.signal,
        clientInfo,
        secrets,
        maxMessageBytes,
        onToolsChanged: () => opened && refresh(opened),
      });
      session = opened;
      const listed = await listTools(opened);
      tools = listed;
      setState({ status: 'ready', tools: listed.length });
      logger.info({ tools: listed.map((tool) => tool.descriptor.name), pid: opened.pid }, 'mcp server ready');
      return await Promise.race([opened.lost, closed]);
    } catch (error) {
      return (error as Error).message;
    } finally {
      session = undefined;
      if (tools.length > 0) setTools([]);
      await opened?.close();
    }
  }

  async function supervise(): Promise<void> {
    let failures = 0;
    let reason = '';
    while (!closing.signal.aborted) {
      if (failures > 0) setState({ status: 'retrying', reason, failures });
      reason = await connectOnce();
      if (closing.signal.aborted) break;
      // A session that reached ready starts the count again.
      failures = state.status === 'ready' ? 1 : failures + 1;
      const delayMs = Math.min(maxMs, initialMs * 2 ** (failures - 1));
      setState({ status: 'failed', reason, failures, retryAt: new Date(Date.now() + delayMs).toISOString() });
      logger.warn({ reason, failures, retryInMs: delayMs }, 'mcp server failed; retrying');
      try {
        await sleep(delayMs, undefined, { signal: closing.signal, ref: false });
      } catch {
        break;
      }
    }
  }

  return {
    config,
    closing: closing.signal,
    state: () => state,
    tools: () => tools,
    pid: () => session?.pid,
    start() {
      if (!config.enabled || supervising) return;
      logger.info({ transport: config.transport }, 'mcp server connecting');
      supervising = supervise();
    },
    async close(reason) {
      // A plain string: the SDK puts String(reason) in the notifications/cancelled it sends.
      if (!closing.signal.aborted) closing.abort(reason);
      await supervising;
      if (config.enabled) setState({ status: 'closed' });
    },
  };
}
