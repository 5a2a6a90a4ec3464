/**
 * Where one MCP server stands:
 * `connecting` (the first attempt), `ready`, `failed` (waiting to retry), `retrying` (a later
 * attempt), `disabled` (`enabled: false` in the config), `closed` (the gateway shut it down).
 */
export type McpServerStatus = 'connecting' | 'ready' | 'failed' | 'retrying' | 'disabled' | 'closed';

/** One server's state, as `GET /health/ready` lists it. Never carries a secret. */
export interface McpServerState {
  readonly name: string;
  readonly transport: 'stdio' | 'http';
  readonly status: McpServerStatus;
  /** When it entered this status (ISO 8601). */
  readonly since: string;
  /** `ready`: how many of its tools the model may call. */
  readonly tools?: number;
  /** `failed`, `retrying`: why the last attempt failed or the connection was lost. */
  readonly reason?: string;
  /** `failed`, `retrying`: attempts that failed in a row. */
  readonly failures?: number;
  /** `failed`: when the next attempt starts (ISO 8601). */
  readonly retryAt?: string;
}
