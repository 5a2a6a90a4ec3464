import { afterAll, describe, expect, it } from 'vitest';
import { createMcpManager, type McpManager } from '../../src/agent/tools/mcp/createMcpManager.js';
import { loadMcpConfig } from '../../src/agent/tools/mcp/loadMcpConfig.js';
import { runToolCall } from '../../src/agent/tools/runToolCall.js';
import {
  createScratch,
  eventually,
  fixtureStdioEntry,
  readRecords,
  startHttpFixture,
  writeMcpConfig,
  type FixtureRecord,
} from '../support/mcpFixture.js';

// Measured, not asserted: the figures are printed. Each trial starts a slow call, waits until the
// server runs it, unsubscribes, and reads from the server's own log when the cancellation arrived.
// MCP_LATENCY_TRIALS=300 npx vitest run test/backends/mcpCancelLatency.test.ts for a steadier p99.
const TRIALS = Number(process.env.MCP_LATENCY_TRIALS ?? 60);
const TIMEOUT_MS = Math.max(60_000, TRIALS * 500);
const scratch = createScratch();
const managers: McpManager[] = [];
const stops: (() => Promise<void>)[] = [];

afterAll(async () => {
  await Promise.all(managers.map((mcp) => mcp.close()));
  await Promise.all(stops.map((stop) => stop()));
  scratch.cleanup();
});

const epochNow = () => performance.timeOrigin + performance.now();

function summary(label: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return `${label}: n=${sorted.length} median=${at(0.5).toFixed(2)} ms p99=${at(0.99).toFixed(2)} ms max=${sorted.at(-1)!.toFixed(2)} ms`;
}

async function measure(servers: Record<string, unknown>, log: string, server: string, closedToo: boolean) {
  const path = writeMcpConfig(scratch.path(`${server}.json`), servers);
  const mcp = createMcpManager(loadMcpConfig(path));
  managers.push(mcp);
  await eventually(() => mcp.states()[0]!.status === 'ready', 15_000, `${server} ready`);
  const tool = mcp.tools().find((candidate) => candidate.name === `${server}__slow`)!;
  const notified: number[] = [];
  const closed: number[] = [];
  for (let trial = 0; trial < TRIALS; trial++) {
    const before = readRecords(log).filter((record) => record.event === 'call_started').length;
    const subscription = runToolCall(
      tool,
      { callId: `c${trial}`, name: tool.name, arguments: '{}' },
      new AbortController().signal,
    ).subscribe();
    let call: FixtureRecord | undefined;
    await eventually(
      () => (call = readRecords(log).filter((record) => record.event === 'call_started')[before]) !== undefined,
      10_000,
      'the call',
    );
    const abortedAt = epochNow();
    subscription.unsubscribe();
    let notification: FixtureRecord | undefined;
    let close: FixtureRecord | undefined;
    await eventually(
      () => {
        const records = readRecords(log);
        notification = records.find(
          (record) => record.method === 'notifications/cancelled' && record.params?.requestId === call!.requestId,
        );
        close = records.find((record) => record.event === 'http_closed' && record.ids?.includes(call!.requestId!) === true);
        return notification !== undefined && (!closedToo || close !== undefined);
      },
      10_000,
      'the cancellation',
    );
    notified.push(notification!.at - abortedAt);
    if (close) closed.push(close.at - abortedAt);
  }
  return { notified, closed };
}

describe('abort to MCP server cancelled, measured', () => {
  it(
    `over stdio: notifications/cancelled reaches the server (${TRIALS} trials)`,
    async () => {
      const log = scratch.path('stdio.log');
      const { notified } = await measure({ stdio: fixtureStdioEntry(log) }, log, 'stdio', false);

      console.log(summary('stdio, abort -> server received notifications/cancelled', notified));
      expect(notified).toHaveLength(TRIALS);
    },
    TIMEOUT_MS,
  );

  it(
    `over Streamable HTTP: the notification and the closed request reach the server (${TRIALS} trials)`,
    async () => {
      const log = scratch.path('http.log');
      const fixture = await startHttpFixture(log);
      stops.push(fixture.close);
      const { notified, closed } = await measure({ http: { url: fixture.url } }, log, 'http', true);

      console.log(summary('http, abort -> server received notifications/cancelled', notified));
      console.log(summary('http, abort -> server saw the call request close', closed));
      expect(notified).toHaveLength(TRIALS);
      expect(closed).toHaveLength(TRIALS);
    },
    TIMEOUT_MS,
  );
});
