import { ProtocolError, SdkError, SdkErrorCode, type CallToolResult, type Tool as McpToolDescriptor } from '@modelcontextprotocol/client';
import type { z } from 'zod';
import type { Tool } from '../tool.js';
import { renderToolResult } from './renderToolResult.js';

/** The one client call an MCP tool makes: `Client.callTool` of the official SDK, or a fake in specs. */
export interface McpToolCaller {
  callTool(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    options: {
      signal: AbortSignal;
      timeout: number;
      onprogress: (progress: { progress: number; total?: number; message?: string }) => void;
      toolDefinition: McpToolDescriptor;
    },
  ): Promise<CallToolResult>;
}

export interface McpToolOptions {
  /** The server's name, for error messages. */
  readonly server: string;
  /** The tool as the server lists it. */
  readonly descriptor: McpToolDescriptor;
  /** The name the model sees (`<server>__<tool>`, sanitised). */
  readonly name: string;
  /** From `prepareToolSchema`. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly parameters: z.ZodType;
  readonly caller: McpToolCaller;
  /** The longest the call may take; the SDK then cancels it on the server. */
  readonly timeoutMs: number;
  /** Aborted when the server's connection is being closed (shutdown): running calls are cancelled with it. */
  readonly closing: AbortSignal;
  /** Whether its calls wait for a person's approval (the server's `requireApproval`). Default: no. */
  readonly requiresApproval?: boolean;
}

function describeFailure(error: unknown, { server, timeoutMs, closing }: McpToolOptions, signal: AbortSignal): string {
  if (closing.aborted && !signal.aborted)
    return `the call was cancelled: ${closing.reason instanceof Error ? closing.reason.message : String(closing.reason)}`;
  if (error instanceof SdkError) {
    switch (error.code) {
      case SdkErrorCode.RequestTimeout:
        return `MCP server "${server}" did not answer within ${timeoutMs} ms (timeoutMs); the call was cancelled`;
      case SdkErrorCode.ConnectionClosed:
        return `MCP server "${server}" closed the connection during the call (it may have crashed); rxgate reconnects to it, try again later`;
      case SdkErrorCode.NotConnected:
        return `MCP server "${server}" is not connected; rxgate reconnects to it, try again later`;
    }
  }
  if (error instanceof ProtocolError) return `MCP server "${server}" answered with an error: ${error.message}`;
  return `MCP server "${server}": ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * An MCP server's tool as a rxgate tool. Arguments are checked against the server's JSON schema
 * before the call; the signal the tool runs with reaches `callTool`, so unsubscribing the run
 * cancels the call on the server (the SDK sends `notifications/cancelled`); MCP progress
 * notifications become tool progress; an `isError` result and every failure become the error the
 * model reads.
 *
 * ```
 * run:      s---p---!         s = tool_start (callTool sent), p = progress, ! = unsubscribed
 * callTool: ^-------x         x = signal aborted at the frame of the unsubscription
 * ```
 */
export function createMcpTool(options: McpToolOptions): Tool {
  const { descriptor, name, inputSchema, parameters, caller, timeoutMs, closing } = options;
  return {
    name,
    description: descriptor.description ?? descriptor.title ?? '',
    parameters,
    inputSchema,
    origin: { server: options.server, tool: descriptor.name },
    requiresApproval: options.requiresApproval ?? false,
    async run(args, signal, context) {
      let result: CallToolResult;
      try {
        result = await caller.callTool(
          // The call's trace context goes in `_meta` (MCP's place for it); the HTTP transport also sends it as headers.
          {
            name: descriptor.name,
            arguments: args as Record<string, unknown>,
            ...(context?.traceHeaders ? { _meta: { ...context.traceHeaders } } : {}),
          },
          {
            signal: AbortSignal.any([signal, closing]),
            timeout: timeoutMs,
            onprogress: ({ progress, total, message }) => context?.progress({ progress, total, message }),
            toolDefinition: descriptor,
          },
        );
      } catch (error) {
        throw new Error(describeFailure(error, options, signal), { cause: error });
      }
      const text = renderToolResult(result);
      if (result.isError) throw new Error(text === '' ? `MCP server "${options.server}" reported an error without a message` : text);
      return text;
    },
  };
}
