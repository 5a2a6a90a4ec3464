import type { Subscription } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../../../../src/agent/agentEvent.js';
import { Cancellation } from '../../../../../src/agent/cancellation.js';
import { createLlmAgent } from '../../../../../src/agent/llm/createLlmAgent.js';
import { createMcpManager, type McpManager } from '../../../../../src/agent/tools/mcp/createMcpManager.js';
import { loadMcpConfig } from '../../../../../src/agent/tools/mcp/loadMcpConfig.js';
import { runToolCall } from '../../../../../src/agent/tools/runToolCall.js';
import type { Tool } from '../../../../../src/agent/tools/tool.js';
import { captureLogger } from '../../../../support/captureLogger.js';
import {
  createScratch,
  eventually,
  readRecords,
  startHttpFixture,
  waitForRecord,
  writeMcpConfig,
  type FixtureRecord,
} from '../../../../support/mcpFixture.js';
import { answer, createScriptedUpstream, frames, type ScriptedUpstream } from '../../../../support/scriptedUpstream.js';

// Each test starts MCP server processes; on a loaded machine that takes seconds, not milliseconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const QUESTION = { model: 'rxgate-agent', messages: [{ role: 'user' as const, content: 'go' }] };
const TOKEN = 'mcp-http-secret-token';

const scratch = createScratch();
const log = scratch.path('http.log');
const logger = captureLogger();
let fixture: Awaited<ReturnType<typeof startHttpFixture>>;
let mcp: McpManager;
let upstream: ScriptedUpstream | undefined;
const running: Subscription[] = [];

function toolNamed(name: string): Tool {
  return mcp.tools().find((tool) => tool.name === name)!;
}

const calls = () => readRecords(log).filter((record) => record.event === 'call_started');

async function nextCall(before: number): Promise<FixtureRecord> {
  await eventually(() => calls().length > before, 10_000, 'the call to reach the server');
  return calls()[before]!;
}

/** What the server saw of a cancelled call: the notification, the handler's abort, and the call's own POST closing. */
async function cancellationOf(call: FixtureRecord) {
  // Request ids start again in every session: only records after the call are about it.
  const after = (record: FixtureRecord) => record.at >= call.at;
  const notification = await waitForRecord(
    log,
    (record) => after(record) && record.method === 'notifications/cancelled' && record.params?.requestId === call.requestId,
  );
  const aborted = await waitForRecord(
    log,
    (record) => after(record) && record.event === 'call_aborted' && record.requestId === call.requestId,
  );
  const closed = await waitForRecord(
    log,
    (record) => after(record) && record.event === 'http_closed' && record.ids?.includes(call.requestId!) === true,
  );
  return { notification, aborted, closed };
}

beforeAll(async () => {
  fixture = await startHttpFixture(log);
  const path = writeMcpConfig(scratch.path('mcp.json'), {
    remote: { url: fixture.url, headers: { Authorization: 'Bearer ${MCP_TOKEN}' } },
  });
  mcp = createMcpManager(loadMcpConfig(path, { MCP_TOKEN: TOKEN }), { logger: logger.logger, backoff: { initialMs: 100, maxMs: 200 } });
  await eventually(() => mcp.states()[0]!.status === 'ready', 15_000, 'the HTTP server ready');
});

afterEach(async () => {
  running.splice(0).forEach((subscription) => subscription.unsubscribe());
  await upstream?.close();
  upstream = undefined;
});

afterAll(async () => {
  await mcp.close();
  await fixture.close();
  scratch.cleanup();
});

describe('an MCP server over Streamable HTTP (fixture on 127.0.0.1, port 0)', () => {
  it('runs the call the model asks for, sending the configured headers, and never logs them', async () => {
    upstream = await createScriptedUpstream([
      {
        steps: [
          frames.role(),
          frames.toolCallStart(0, 'call_1', 'remote__echo'),
          frames.toolCallArguments(0, '{"text":"over http"}'),
          frames.finish('tool_calls'),
          frames.done(),
        ],
      },
      answer('ok'),
    ]);
    const agent = createLlmAgent({ baseUrl: upstream.baseUrl, model: 'up', tools: mcp.tools() });

    const events: AgentEvent[] = [];
    await new Promise<void>((resolve, reject) =>
      agent.run(QUESTION, new Cancellation()).subscribe({ next: (event) => events.push(event), complete: resolve, error: reject }),
    );

    expect(events.find((event) => event.type === 'tool_end')).toMatchObject({ result: 'over http' });
    expect(
      readRecords(log)
        .filter((record) => record.event === 'http_request')
        .every((record) => record.authorization === `Bearer ${TOKEN}`),
    ).toBe(true);
    expect(logger.text()).not.toContain(TOKEN);
  });

  it('when the run is unsubscribed mid-call: the server gets notifications/cancelled, aborts the handler, and sees the call request close', async () => {
    const before = calls().length;
    const subscription = runToolCall(
      toolNamed('remote__slow'),
      { callId: 'c1', name: 'remote__slow', arguments: '{}' },
      new AbortController().signal,
    ).subscribe();
    running.push(subscription);
    const call = await nextCall(before);

    subscription.unsubscribe();

    const { closed } = await cancellationOf(call);
    expect(closed).toMatchObject({ method: 'POST', finished: false });
  });

  it('when the manager closes mid-call: the call is cancelled on the server, its request closed, and the session deleted', async () => {
    const path = writeMcpConfig(scratch.path('closing.json'), { closing: { url: fixture.url } });
    const closing = createMcpManager(loadMcpConfig(path));
    await eventually(() => closing.states()[0]!.status === 'ready', 15_000, 'ready');
    const before = calls().length;
    const events: AgentEvent[] = [];
    const tool = closing.tools().find((candidate) => candidate.name === 'closing__slow')!;
    const ended = new Promise<void>((resolve) =>
      runToolCall(tool, { callId: 'c2', name: tool.name, arguments: '{}' }, new AbortController().signal).subscribe({
        next: (event) => events.push(event),
        complete: resolve,
      }),
    );
    const call = await nextCall(before);

    await closing.close();
    await ended;

    expect(events.at(-1)).toMatchObject({ type: 'tool_end', error: 'the call was cancelled: Server shutting down' });
    const { notification, aborted } = await cancellationOf(call);
    const deleted = await waitForRecord(
      log,
      (record) => record.event === 'http_request' && record.method === 'DELETE' && record.at > call.at,
    );
    // The server heard of the cancellation before the session ended, and aborted the call for it.
    expect(notification.at).toBeLessThan(deleted.at);
    expect(aborted.reason).toBe('Server shutting down');
  });
});

describe('an MCP server over Streamable HTTP that goes away', () => {
  it('fails the call with a clear error, reports the server failed, and keeps retrying', async () => {
    const gone = await startHttpFixture(scratch.path('gone.log'));
    const path = writeMcpConfig(scratch.path('gone.json'), { gone: { url: gone.url } });
    const manager = createMcpManager(loadMcpConfig(path), { backoff: { initialMs: 100, maxMs: 200 } });
    try {
      await eventually(() => manager.states()[0]!.status === 'ready', 15_000, 'ready');
      const tool = manager.tools().find((candidate) => candidate.name === 'gone__echo')!;
      await gone.close();

      const events: AgentEvent[] = [];
      await new Promise<void>((resolve) =>
        runToolCall(tool, { callId: 'c3', name: tool.name, arguments: '{"text":"hi"}' }, new AbortController().signal).subscribe({
          next: (event) => events.push(event),
          complete: resolve,
        }),
      );

      const origin = new URL(gone.url).origin;
      expect(events.at(-1)).toMatchObject({ type: 'tool_end', error: `MCP server "gone": cannot reach ${origin}: ECONNREFUSED` });
      await eventually(() => (manager.states()[0]!.failures ?? 0) >= 2, 10_000, 'two failed attempts');
      expect(manager.states()[0]).toMatchObject({ reason: `cannot reach ${origin}: ECONNREFUSED` });
      expect(manager.tools()).toEqual([]);
    } finally {
      await manager.close();
    }
  });
});
