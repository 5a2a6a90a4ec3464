import type { CallToolResult, Tool as McpToolDescriptor } from '@modelcontextprotocol/client';
import type { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../src/agent/agentEvent.js';
import { createMcpTool, type McpToolCaller } from '../../../../src/agent/tools/mcp/createMcpTool.js';
import { prepareToolSchema } from '../../../../src/agent/tools/mcp/prepareToolSchema.js';
import { runToolCall } from '../../../../src/agent/tools/runToolCall.js';
import { marbles } from '../../../support/marbles.js';

const DESCRIPTOR: McpToolDescriptor = { name: 'slow', inputSchema: { type: 'object', properties: {} } };
const CALL = { callId: 'call_1', name: 'srv__slow', arguments: '{}' };

const EVENTS = {
  s: { type: 'tool_start', callId: 'call_1', name: 'srv__slow', arguments: '{}', origin: { server: 'srv', tool: 'slow' } },
  p: { type: 'tool_progress', callId: 'call_1', name: 'srv__slow', progress: 1, total: 3 },
  q: { type: 'tool_progress', callId: 'call_1', name: 'srv__slow', progress: 2, total: 3, message: 'halfway' },
} satisfies Record<string, AgentEvent>;

/** A client whose calls never answer, recording the frame at which each call's signal aborted, and reporting progress at the frames given. */
function fakeClient(scheduler: TestScheduler, progressAt: Record<number, { progress: number; total?: number; message?: string }> = {}) {
  const calls: { name: string; abortedAt?: number }[] = [];
  const caller: McpToolCaller = {
    callTool(params, { signal, onprogress }) {
      const call: { name: string; abortedAt?: number } = { name: params.name };
      calls.push(call);
      signal.addEventListener('abort', () => (call.abortedAt = scheduler.now()), { once: true });
      for (const [frame, progress] of Object.entries(progressAt)) scheduler.schedule(() => signal.aborted || onprogress(progress), Number(frame));
      return new Promise<CallToolResult>(() => {});
    },
  };
  return { caller, calls };
}

function slowTool(caller: McpToolCaller, closing = new AbortController().signal) {
  const schema = prepareToolSchema(DESCRIPTOR.inputSchema);
  if (!schema.ok) throw new Error(schema.problem);
  return createMcpTool({ server: 'srv', descriptor: DESCRIPTOR, name: 'srv__slow', inputSchema: schema.inputSchema, parameters: schema.parameters, caller, timeoutMs: 60_000, closing });
}

describe('an MCP tool call', () => {
  it('calls the server at subscription and aborts the call at the frame it is unsubscribed', marbles((m) => {
    const client = fakeClient(m.scheduler);
    const call$ = runToolCall(slowTool(client.caller), CALL, new AbortController().signal);
    const subs =     '^---!';
    const expected = 's----';

    m.expect(call$, subs).toBeObservable(expected, EVENTS);
    m.flush();
    expect(client.calls).toEqual([{ name: 'slow', abortedAt: 4 }]);
  }));

  // Notifications further apart than TOOL_PROGRESS_INTERVAL_MS (100 frames): each is an event.
  it('turns progress notifications into tool_progress events at their frames, and none after the unsubscription', marbles((m) => {
    const client = fakeClient(m.scheduler, { 2: { progress: 1, total: 3 }, 150: { progress: 2, total: 3, message: 'halfway' }, 400: { progress: 3, total: 3 } });
    const call$ = runToolCall(slowTool(client.caller), CALL, new AbortController().signal, m.scheduler);
    const subs =     '^ 199ms !';
    const expected = 's-p 147ms q';

    m.expect(call$, subs).toBeObservable(expected, EVENTS);
    m.flush();
    expect(client.calls[0]!.abortedAt).toBe(200);
  }));

  it('aborts the call at the frame the run signal aborts (the run was interrupted)', marbles((m) => {
    const client = fakeClient(m.scheduler);
    const run = new AbortController();
    m.scheduler.schedule(() => run.abort(new Error('Stop requested via API')), 3);
    const call$ = runToolCall(slowTool(client.caller), CALL, run.signal);

    m.expect(call$).toBeObservable('s------', EVENTS);
    m.flush();
    expect(client.calls[0]!.abortedAt).toBe(3);
  }));

  it('aborts the call at the frame the server connection starts closing (shutdown)', marbles((m) => {
    const client = fakeClient(m.scheduler);
    const closing = new AbortController();
    m.scheduler.schedule(() => closing.abort(new Error('Server shutting down')), 5);
    const call$ = runToolCall(slowTool(client.caller, closing.signal), CALL, new AbortController().signal);

    m.expect(call$, '^-------!').toBeObservable('s-------', EVENTS);
    m.flush();
    expect(client.calls[0]!.abortedAt).toBe(5);
  }));
});
