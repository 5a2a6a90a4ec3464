import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const FIXTURE = resolve('test/fixtures/mcp/fixtureServer.ts');
const EVERYTHING = resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** One line the fixture server wrote: what it received or did, and when (epoch ms, sub-ms). */
export interface FixtureRecord {
  readonly at: number;
  readonly pid: number;
  readonly event: 'started' | 'message' | 'call_started' | 'call_aborted' | 'http_request' | 'http_closed';
  readonly method?: string;
  readonly id?: number | string;
  readonly params?: Record<string, unknown>;
  readonly requestId?: number | string;
  readonly name?: string;
  readonly ids?: (number | string)[];
  /** The JSON-RPC methods of an HTTP request's messages (`response` for a response). */
  readonly rpc?: string[];
  readonly finished?: boolean;
  readonly reason?: string;
  readonly authorization?: string;
  /** The `traceparent` header of an HTTP request, as it arrived (several would be joined by commas). */
  readonly traceparent?: string;
}

/** A temporary folder for config files and fixture logs, removed by `cleanup`. */
export function createScratch(): { dir: string; path: (name: string) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'rxgate-mcp-'));
  return { dir, path: (name) => join(dir, name), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The config entry of the fixture server over stdio, recording into `log`. */
export function fixtureStdioEntry(log: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: ['--import', 'tsx', FIXTURE, 'stdio'], env: { MCP_FIXTURE_LOG: log }, ...extra };
}

/** The config entry of `@modelcontextprotocol/server-everything` over stdio, run from node_modules. */
export function everythingEntry(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [EVERYTHING, 'stdio'], ...extra };
}

export function writeMcpConfig(path: string, servers: Record<string, unknown>): string {
  writeFileSync(path, JSON.stringify({ mcpServers: servers }, null, 2));
  return path;
}

export function readRecords(log: string): FixtureRecord[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as FixtureRecord);
}

/** Polls the fixture's log until a record matches; the evidence of what the server saw. */
export async function waitForRecord(
  log: string,
  predicate: (record: FixtureRecord) => boolean,
  timeoutMs = 10_000,
): Promise<FixtureRecord> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const found = readRecords(log).find(predicate);
    if (found) return found;
    if (performance.now() > deadline)
      throw new Error(`the MCP fixture never recorded the expected event; it recorded:\n${readFileSync(log, 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The fixture server over Streamable HTTP on 127.0.0.1, port 0, in its own process. */
export async function startHttpFixture(log: string): Promise<{ url: string; child: ChildProcess; close: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, 'http'], {
    env: { ...process.env, MCP_FIXTURE_LOG: log },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const url = await new Promise<string>((resolveUrl, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^listening (\S+)$/.exec(line);
      if (match) resolveUrl(match[1]!);
    });
    void exited.then(() => reject(new Error('the HTTP fixture exited before listening')));
  });
  return {
    url,
    child,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** Whether a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once `condition` holds, polling; for state that changes on its own (reconnects). */
export async function eventually(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'the condition'): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
