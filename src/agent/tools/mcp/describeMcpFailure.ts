import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import type { McpServerConfig } from './mcpServerConfig.js';
import { redactThenCut } from '../../../errors/redactSecrets.js';

/** Why talking to a server failed, in words for logs and the health answer, and whether the connection is gone. */
export interface McpFailure {
  readonly reason: string;
  /** The server cannot be reached any more (as opposed to one request failing). */
  readonly lost: boolean;
}

const MAX_REASON_LENGTH = 300;

function codeOf(error: unknown): string | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  }
  return undefined;
}

function describe(server: McpServerConfig, error: unknown, phase: 'handshake' | 'call'): McpFailure {
  const during = phase === 'handshake' ? ' during the MCP handshake' : '';
  const code = codeOf(error);
  if (server.transport === 'stdio' && (error as NodeJS.ErrnoException)?.syscall?.startsWith('spawn')) {
    const why = code === 'ENOENT' ? 'command not found' : code === 'EACCES' ? 'not executable' : (error as Error).message;
    return { reason: `cannot start "${server.command}": ${why}`, lost: true };
  }
  if (error instanceof SdkHttpError) {
    if (error.status === 404 && phase === 'call') return { reason: 'the session ended on the server (HTTP 404)', lost: true };
    return { reason: `the server answered HTTP ${error.status}${during}`, lost: phase === 'handshake' };
  }
  if (error instanceof SdkError) {
    switch (error.code) {
      case SdkErrorCode.RequestTimeout:
        return {
          reason: phase === 'handshake' ? 'no answer to the MCP handshake in time' : `no answer within ${server.timeoutMs} ms (timeoutMs)`,
          lost: phase === 'handshake',
        };
      case SdkErrorCode.ConnectionClosed:
        return { reason: `${server.transport === 'stdio' ? 'the server process exited' : 'the connection closed'}${during}`, lost: true };
      case SdkErrorCode.NotConnected:
        return { reason: 'not connected', lost: true };
    }
  }
  if (server.transport === 'http' && (error instanceof TypeError || code !== undefined)) {
    return { reason: `cannot reach ${new URL(server.url).origin}: ${code ?? (error as Error).message}`, lost: true };
  }
  return { reason: `${error instanceof Error ? error.message : String(error)}${during}`, lost: phase === 'handshake' };
}

/**
 * Words for a failure to talk to an MCP server, with the entry's secrets (env values, header
 * values) redacted and an HTTP server named by its origin only (a URL may carry a token).
 */
export function describeMcpFailure(
  server: McpServerConfig,
  error: unknown,
  secrets: readonly string[],
  phase: 'handshake' | 'call',
): McpFailure {
  const failure = describe(server, error, phase);
  return { ...failure, reason: redactThenCut(failure.reason, secrets, MAX_REASON_LENGTH) };
}
