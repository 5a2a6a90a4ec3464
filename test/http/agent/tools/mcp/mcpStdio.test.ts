import type { Subscription } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../../../../src/agent/agentEvent.js';
import { Cancellation } from '../../../../../src/agent/cancellation.js';
import { InterruptReason } from '../../../../../src/agent/interruptReason.js';
import { createLlmAgent } from '../../../../../src/agent/llm/createLlmAgent.js';
import { calculatorTool } from '../../../../../src/agent/tools/calculatorTool.js';
import { createMcpManager, type McpManager } from '../../../../../src/agent/tools/mcp/createMcpManager.js';
import { loadMcpConfig } from '../../../../../src/agent/tools/mcp/loadMcpConfig.js';
import { runToolCall } from '../../../../../src/agent/tools/runToolCall.js';
import type { Tool } from '../../../../../src/agent/tools/tool.js';
import { captureLogger } from '../../../../support/captureLogger.js';
import { collectRun } from '../../../../support/collectRun.js';
import {
  createScratch,
  eventually,
  everythingEntry,
  fixtureStdioEntry,
  isAlive,
  readRecords,
  waitForRecord,
  writeMcpConfig,
  type FixtureRecord,
} from '../../../../support/mcpFixture.js';
import {
  answer,
  createScriptedUpstream,
  frames,
  type ScriptedUpstream,
  type UpstreamScript,
} from '../../../../support/scriptedUpstream.js';

// Each test starts MCP server processes; on a loaded machine that takes seconds, not milliseconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const QUESTION = { model: 'rxgate-agent', messages: [{ role: 'user' as const, content: 'go' }] };
const FAST_RETRY = { initialMs: 100, maxMs: 400 };

function callsTool(name: string, args: string): UpstreamScript {
  return {
    steps: [
      frames.role(),
      frames.toolCallStart(0, 'call_1', name),
      frames.toolCallArguments(0, args),
      frames.finish('tool_calls'),
      frames.usage(5, 5),
      frames.done(),
    ],
  };
}

function toolNamed(mcp: McpManager, name: string): Tool {
  const tool = mcp.tools().find((candidate) => candidate.name === name);
  if (!tool)
    throw new Error(
      `no tool ${name}; have ${mcp
        .tools()
        .map((t) => t.name)
        .join(', ')}`,
    );
  return tool;
}

async function whenReady(mcp: McpManager, ...names: string[]): Promise<void> {
  await eventually(
    () => names.every((name) => mcp.states().find((state) => state.name === name)?.status === 'ready'),
    15_000,
    `${names.join(', ')} ready`,
  );
}

/** Runs one tool call outside an agent: its events, and the subscription (to cancel it). */
function callTool(tool: Tool, args: string, signal = new AbortController().signal) {
  const events: AgentEvent[] = [];
  let subscription!: Subscription;
  const ended = new Promise<AgentEvent[]>((resolve) => {
    subscription = runToolCall(tool, { callId: 'call_x', name: tool.name, arguments: args }, signal).subscribe({
      next: (event) => events.push(event),
      complete: () => resolve(events),
    });
  });
  return { events, ended, subscription };
}

const scratch = createScratch();
let upstream: ScriptedUpstream | undefined;
const managers: McpManager[] = [];

function mount(servers: Record<string, unknown>, logger = captureLogger().logger): McpManager {
  const path = writeMcpConfig(scratch.path(`mcp-${managers.length}.json`), servers);
  const mcp = createMcpManager(loadMcpConfig(path), { logger, backoff: FAST_RETRY, reservedNames: ['calculator', 'current_time'] });
  managers.push(mcp);
  return mcp;
}

afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

afterAll(async () => {
  await Promise.all(managers.map((mcp) => mcp.close()));
  scratch.cleanup();
});

describe('a real MCP server from npm (server-everything) mounted from a config file', () => {
  it('offers its allowed tools with their schemas, runs the call the model asks for, and sends the result back', async () => {
    const mcp = mount({ everything: everythingEntry({ tools: ['get-sum', 'echo'] }) });
    await whenReady(mcp, 'everything');
    upstream = await createScriptedUpstream([callsTool('everything__get-sum', '{"a":2,"b":40}'), answer('It is 42.')]);
    const agent = createLlmAgent({ baseUrl: upstream.baseUrl, model: 'up', tools: [calculatorTool, ...mcp.tools()] });

    const { events, error } = await collectRun(agent.run(QUESTION, new Cancellation()));

    expect(error).toBeUndefined();
    expect(events.filter((event) => event.type.startsWith('tool_'))).toEqual([
      {
        type: 'tool_start',
        callId: 'call_1',
        name: 'everything__get-sum',
        arguments: '{"a":2,"b":40}',
        origin: { server: 'everything', tool: 'get-sum' },
      },
      {
        type: 'tool_end',
        callId: 'call_1',
        name: 'everything__get-sum',
        result: 'The sum of 2 and 40 is 42.',
        durationMs: expect.any(Number),
      },
    ]);
    const offered = upstream.requests[0]!.body.tools as { function: { name: string; parameters: Record<string, unknown> } }[];
    expect(offered.map((tool) => tool.function.name)).toEqual(['calculator', 'everything__echo', 'everything__get-sum']);
    expect(offered[2]!.function.parameters).toEqual({
      type: 'object',
      properties: { a: { type: 'number', description: 'First number' }, b: { type: 'number', description: 'Second number' } },
      required: ['a', 'b'],
    });
    const messages = upstream.requests[1]!.body.messages as { role: string; content: string; tool_call_id?: string }[];
    expect(messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'The sum of 2 and 40 is 42.' });
  });

  it('leaves out a tool its server says only an MCP task can call, with a warning naming it', async () => {
    const log = captureLogger();
    const mcp = mount({ everything: everythingEntry({ tools: ['echo', 'simulate-research-query'] }) }, log.logger);
    await whenReady(mcp, 'everything');

    expect(mcp.tools().map((tool) => tool.name)).toEqual(['everything__echo']);
    expect(log.lines.find((line) => line.tool === 'simulate-research-query')).toMatchObject({
      msg: 'mcp tool left out',
      problem: expect.stringContaining('execution.taskSupport: "required"'),
    });
  });

  // Retried: the reference server's progress notifications arrive with a timing this machine sometimes misses (flaky on main too).
  // Its steps further apart than TOOL_PROGRESS_INTERVAL_MS, so that coalescing keeps each report.
  it('turns its progress notifications into tool_progress events', { retry: 2 }, async () => {
    const mcp = mount({ everything: everythingEntry({ tools: ['trigger-long-running-operation'] }) });
    await whenReady(mcp, 'everything');

    const events = await callTool(toolNamed(mcp, 'everything__trigger-long-running-operation'), '{"duration":0.6,"steps":2}').ended;

    // Coalesced (the latest report wins), the second report may be folded into the tool's end when a busy machine delivers both at once.
    const types = events.map((event) => event.type);
    expect([types[0], types.at(-1)]).toEqual(['tool_start', 'tool_end']);
    expect(types.slice(1, -1)).toContain('tool_progress');
    expect(types.slice(1, -1).every((type) => type === 'tool_progress')).toBe(true);
    expect(events[1]).toEqual({
      type: 'tool_progress',
      callId: 'call_x',
      name: 'everything__trigger-long-running-operation',
      progress: 1,
      total: 2,
    });
  });
});

describe('cancelling a call on the MCP server (fixture server over stdio)', () => {
  const log = scratch.path('fixture.log');
  let mcp: McpManager;
  const running: Subscription[] = [];
  afterEach(() => running.splice(0).forEach((subscription) => subscription.unsubscribe()));
  beforeAll(async () => {
    mcp = mount({ fixture: fixtureStdioEntry(log), short: fixtureStdioEntry(scratch.path('short.log'), { timeoutMs: 300 }) });
    await whenReady(mcp, 'fixture', 'short');
  });

  /** Starts a run whose model calls fixture__slow, and resolves once the server is running the call. */
  async function runUntilCallRuns(cancellation: Cancellation) {
    upstream = await createScriptedUpstream([callsTool('fixture__slow', '{}'), answer('done')]);
    const log$ = captureLogger();
    const agent = createLlmAgent({ baseUrl: upstream.baseUrl, model: 'up', tools: mcp.tools(), logger: log$.logger });
    const events: AgentEvent[] = [];
    const calls = () => readRecords(log).filter((record) => record.event === 'call_started');
    const before = calls().length;
    const subscription = agent.run(QUESTION, cancellation).subscribe({ next: (event) => events.push(event), error: () => {} });
    running.push(subscription);
    await eventually(() => calls().length > before, 10_000, 'the call to reach the server');
    return { subscription, call: calls()[before]!, events, lines: log$.lines };
  }

  async function cancellationOf(call: FixtureRecord): Promise<FixtureRecord> {
    const notification = await waitForRecord(
      log,
      (record) => record.method === 'notifications/cancelled' && record.params?.requestId === call.requestId,
    );
    await waitForRecord(log, (record) => record.event === 'call_aborted' && record.requestId === call.requestId);
    return notification;
  }

  it('when the client leaves: unsubscribing the run sends notifications/cancelled for that request, and the server aborts it', async () => {
    const { subscription, call, events } = await runUntilCallRuns(new Cancellation());

    subscription.unsubscribe();

    const notification = await cancellationOf(call);
    expect(notification.params).toMatchObject({ requestId: call.requestId });
    // The run is gone: nobody reads an end of the call.
    expect(events.filter((event) => event.type === 'tool_start' || event.type === 'tool_end').map((event) => event.type)).toEqual([
      'tool_start',
    ]);
  });

  it('when a stop is requested: the same, and the run is interrupted with the stop reason', async () => {
    const cancellation = new Cancellation();
    const { subscription, call, lines } = await runUntilCallRuns(cancellation);

    cancellation.cancelWith(InterruptReason.stopRequested);
    subscription.unsubscribe();

    await cancellationOf(call);
    expect(lines.filter((line) => line.msg === 'llm run interrupted').map((line) => line.reason)).toEqual([InterruptReason.stopRequested]);
  });

  it('when the call outlives the server timeoutMs: the error goes to the model and the server is told to cancel', async () => {
    const shortLog = scratch.path('short.log');

    const events = await callTool(toolNamed(mcp, 'short__slow'), '{}').ended;

    expect(events.at(-1)).toMatchObject({
      type: 'tool_end',
      error: 'MCP server "short" did not answer within 300 ms (timeoutMs); the call was cancelled',
    });
    const call = await waitForRecord(shortLog, (record) => record.event === 'call_started');
    await waitForRecord(shortLog, (record) => record.method === 'notifications/cancelled' && record.params?.requestId === call.requestId);
  });

  it('checks arguments against the tool JSON schema before calling, and renders rich and isError results', async () => {
    const before = readRecords(log).filter((record) => record.event === 'call_started').length;

    const invalid = await callTool(toolNamed(mcp, 'fixture__echo'), '{"text":3}').ended;
    const rich = await callTool(toolNamed(mcp, 'fixture__rich'), '').ended;
    const failed = await callTool(toolNamed(mcp, 'fixture__fails'), '{}').ended;

    expect(invalid.at(-1)).toMatchObject({ error: 'invalid arguments for fixture__echo: text: must be string' });
    expect(rich.at(-1)).toMatchObject({
      result:
        'Here is the report.\n[image: image/png, 12 kB]\n[resource link: q3.pdf <file:///reports/q3.pdf> (application/pdf)]\nembedded notes',
    });
    expect(failed.at(-1)).toMatchObject({ error: 'disk full' });
    // The invalid call never reached the server.
    expect(
      readRecords(log)
        .filter((record) => record.event === 'call_started')
        .slice(before)
        .map((record) => record.name),
    ).toEqual(['rich', 'fails']);
  });
});

describe('the MCP manager', () => {
  it('on close, cancels a running call on the server, ends the call with a cancelled error, and leaves no child process', async () => {
    const log = scratch.path('shutdown.log');
    const mcp = mount({ fixture: fixtureStdioEntry(log), everything: everythingEntry() });
    await whenReady(mcp, 'fixture', 'everything');
    const pids = mcp.pids();
    expect(pids).toHaveLength(2);
    expect(pids.every(isAlive)).toBe(true);
    const running = callTool(toolNamed(mcp, 'fixture__slow'), '{}');
    const call = await waitForRecord(log, (record) => record.event === 'call_started');

    await mcp.close();

    expect((await running.ended).at(-1)).toMatchObject({ type: 'tool_end', error: 'the call was cancelled: Server shutting down' });
    const cancelled = readRecords(log).find((record) => record.method === 'notifications/cancelled');
    expect(cancelled?.params).toEqual({ requestId: call.requestId, reason: 'Server shutting down' });
    expect(readRecords(log).some((record) => record.event === 'call_aborted' && record.requestId === call.requestId)).toBe(true);
    expect(pids.filter(isAlive)).toEqual([]);
    expect(mcp.pids()).toEqual([]);
    expect(mcp.states().map((state) => state.status)).toEqual(['closed', 'closed']);
    expect(mcp.tools()).toEqual([]);
  });

  it('when a server crashes mid-call: the call fails clearly, the others keep working, the state says failed, and a reconnect brings it back', async () => {
    const mcp = mount({ crashy: fixtureStdioEntry(scratch.path('crashy.log')), steady: fixtureStdioEntry(scratch.path('steady.log')) });
    await whenReady(mcp, 'crashy', 'steady');
    const [firstPid] = mcp.pids();
    const statuses: string[] = [];
    const watch = setInterval(() => statuses.push(mcp.states()[0]!.status), 5);

    const crashed = await callTool(toolNamed(mcp, 'crashy__crash'), '{}').ended;
    const steady = await callTool(toolNamed(mcp, 'steady__echo'), '{"text":"still here"}').ended;
    await whenReady(mcp, 'crashy');
    clearInterval(watch);
    const again = await callTool(toolNamed(mcp, 'crashy__echo'), '{"text":"back"}').ended;

    expect(crashed.at(-1)).toMatchObject({
      error: 'MCP server "crashy" closed the connection during the call (it may have crashed); rxgate reconnects to it, try again later',
    });
    expect(steady.at(-1)).toMatchObject({ result: 'still here' });
    expect(statuses).toContain('failed');
    expect(again.at(-1)).toMatchObject({ result: 'back' });
    expect(mcp.pids()).not.toContain(firstPid);
    expect(isAlive(firstPid!)).toBe(false);
  });

  it('reports a server whose process never starts as failed, retries it with backoff, and does not hold back the others or readiness', async () => {
    const log = captureLogger();
    const mcp = mount(
      {
        missing: { command: 'rxgate-no-such-command', env: { TOKEN: 'sekrit-token-value' } },
        fixture: fixtureStdioEntry(scratch.path('ok.log')),
      },
      log.logger,
    );
    expect(await mcp.readiness.check()).toMatch(/^still connecting to /);

    await whenReady(mcp, 'fixture');
    await eventually(() => (mcp.states()[0]!.failures ?? 0) >= 3, 10_000, 'three failed attempts');

    expect(mcp.states()[0]).toMatchObject({
      name: 'missing',
      transport: 'stdio',
      reason: 'cannot start "rxgate-no-such-command": command not found',
    });
    expect(['failed', 'retrying']).toContain(mcp.states()[0]!.status);
    expect(await mcp.readiness.check()).toBeUndefined();
    expect(mcp.tools().some((tool) => tool.name === 'fixture__echo')).toBe(true);
    const retries = log.lines
      .filter((line) => line.msg === 'mcp server failed; retrying' && line.mcpServer === 'missing')
      .map((line) => line.retryInMs);
    expect(retries.slice(0, 3)).toEqual([100, 200, 400]);
    expect(log.text()).not.toContain('sekrit-token-value');
  });

  it('never logs the secrets of a server entry, not even when the server prints them', async () => {
    const log = captureLogger();
    const secret = 'sekrit-api-key-1234';
    const mcp = mount(
      {
        chatty: fixtureStdioEntry(scratch.path('chatty.log'), {
          env: { MCP_FIXTURE_LOG: scratch.path('chatty.log'), MCP_FIXTURE_STDERR: `apiKey=${secret}`, API_KEY: secret },
        }),
      },
      log.logger,
    );
    await whenReady(mcp, 'chatty');
    await eventually(() => log.lines.some((line) => line.msg === 'mcp server stderr'), 5000, 'the stderr line');

    expect(log.lines.find((line) => line.msg === 'mcp server stderr')).toMatchObject({ stderr: 'config: [redacted]' });
    expect(log.text()).not.toContain(secret);
  });

  it('leaves out a tool whose schema upstreams would reject, with a warning, and sanitises a name they would reject', async () => {
    const log = captureLogger();
    const mcp = mount({ fixture: fixtureStdioEntry(scratch.path('schemas.log')) }, log.logger);
    await whenReady(mcp, 'fixture');

    const names = mcp.tools().map((tool) => tool.name);

    expect(names).toEqual([
      'fixture__echo',
      'fixture__slow',
      'fixture__crash',
      'fixture__rich',
      'fixture__fails',
      'fixture__add_tool',
      'fixture__flood',
      'fixture__endless_line',
      'fixture__deaf_flood',
      'fixture__dotted_name',
    ]);
    expect(log.lines.find((line) => line.msg === 'mcp tool left out')).toMatchObject({
      level: 40,
      mcpServer: 'fixture',
      tool: 'broken',
      problem: 'its input schema is not valid JSON Schema (type must be JSONType or JSONType[]: strnig)',
    });
    expect(log.lines.find((line) => line.msg === 'mcp tool renamed: its name has characters upstreams reject')).toMatchObject({
      tool: 'dotted.name',
      name: 'fixture__dotted_name',
    });
    expect(toolNamed(mcp, 'fixture__dotted_name').inputSchema).toEqual({ type: 'object', properties: {} });
    expect(mcp.origin('fixture__dotted_name')).toEqual({ server: 'fixture', tool: 'dotted.name' });
    expect(mcp.origin('calculator')).toBeUndefined();
  });

  it('refreshes a server tool list when it says the list changed', async () => {
    const mcp = mount({ fixture: fixtureStdioEntry(scratch.path('changes.log')) });
    await whenReady(mcp, 'fixture');
    const before = mcp.tools();
    expect(before.some((tool) => tool.name === 'fixture__added')).toBe(false);

    await callTool(toolNamed(mcp, 'fixture__add_tool'), '{}').ended;

    await eventually(() => mcp.tools().some((tool) => tool.name === 'fixture__added'), 5000, 'the added tool');
    expect(mcp.tools()).not.toBe(before);
    expect(mcp.states()[0]).toMatchObject({ status: 'ready', tools: 11 });
  });

  it("marks the tools of a server's requireApproval (a list of its MCP names, or true for all)", async () => {
    const mcp = mount({
      listed: fixtureStdioEntry(scratch.path('approval-listed.log'), { requireApproval: ['echo', 'dotted.name'] }),
      all: fixtureStdioEntry(scratch.path('approval-all.log'), { requireApproval: true }),
    });
    await whenReady(mcp, 'listed', 'all');

    const marked = mcp
      .tools()
      .filter((tool) => tool.requiresApproval)
      .map((tool) => tool.name);
    expect(marked.filter((name) => name.startsWith('listed__'))).toEqual(['listed__echo', 'listed__dotted_name']);
    expect(marked.filter((name) => name.startsWith('all__'))).toEqual(
      mcp
        .tools()
        .map((tool) => tool.name)
        .filter((name) => name.startsWith('all__')),
    );
  });
});
