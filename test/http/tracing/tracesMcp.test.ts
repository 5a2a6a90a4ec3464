import { ROOT_CONTEXT } from '@opentelemetry/api';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Cancellation } from '../../../src/agent/cancellation.js';
import { createLlmAgent } from '../../../src/agent/llm/createLlmAgent.js';
import { createMcpManager, type McpManager } from '../../../src/agent/tools/mcp/createMcpManager.js';
import { loadMcpConfig } from '../../../src/agent/tools/mcp/loadMcpConfig.js';
import { captureLogger } from '../../support/captureLogger.js';
import { memoryTracing } from '../../support/memoryTracing.js';
import { createScratch, eventually, readRecords, startHttpFixture, writeMcpConfig } from '../../support/mcpFixture.js';
import { answer, createScriptedUpstream, toolCalls } from '../../support/scriptedUpstream.js';

// Issue 28: a Streamable HTTP MCP server gets exactly one traceparent with each tool call, the call's span.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const scratch = createScratch();
const log = scratch.path('http.log');
let fixture: Awaited<ReturnType<typeof startHttpFixture>>;
let mcp: McpManager;

beforeAll(async () => {
  fixture = await startHttpFixture(log);
  const path = writeMcpConfig(scratch.path('mcp.json'), { remote: { url: fixture.url } });
  mcp = createMcpManager(loadMcpConfig(path, {}), { logger: captureLogger().logger, backoff: { initialMs: 100, maxMs: 200 } });
  await eventually(() => mcp.states()[0]!.status === 'ready', 15_000, 'the HTTP server ready');
});

afterAll(async () => {
  await mcp.close();
  await fixture.close();
  scratch.cleanup();
});

describe('a traced MCP tool call over Streamable HTTP', () => {
  it("sends the execute_tool span's traceparent, once, with the tools/call request, and names the server on the span", async () => {
    const upstream = await createScriptedUpstream([
      toolCalls({ id: 'call_echo', name: 'remote__echo', fragments: ['{"text":"traced"}'] }),
      answer('ok'),
    ]);
    const traces = memoryTracing();
    const agent = createLlmAgent({ baseUrl: upstream.baseUrl, model: 'up', tools: mcp.tools() });
    const trace = { tracing: traces.tracing, context: ROOT_CONTEXT, interruptReason: () => undefined };
    const events = await lastValueFrom(
      agent.run({ model: 'rxgate-agent', messages: [{ role: 'user', content: 'go' }], trace }, new Cancellation()).pipe(toArray()),
    );
    await upstream.close();
    expect(events.find((event) => event.type === 'tool_end')).toMatchObject({ result: 'traced' });

    const tool = traces.span('execute_tool remote__echo');
    expect(tool.attributes).toMatchObject({
      'gen_ai.tool.type': 'extension',
      'gen_ai.tool.call.id': 'call_echo',
      'rxgate.mcp.server_name': 'remote',
      'rxgate.mcp.tool_name': 'echo',
    });
    const { traceId, spanId } = tool.spanContext();
    const call = readRecords(log).find((record) => record.event === 'http_request' && record.rpc?.includes('tools/call'));
    expect(call?.traceparent).toBe(`00-${traceId}-${spanId}-01`);
  });
});
