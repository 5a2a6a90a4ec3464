import { SpanKind, SpanStatusCode, TraceFlags } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InterruptReason } from '../../../src/agent/interruptReason.js';
import { defineTool } from '../../../src/agent/tools/tool.js';
import { followRun } from '../../support/followRun.js';
import { memoryTracing, type MemoryTracing } from '../../support/memoryTracing.js';
import { NOTE_NEEDS_APPROVAL } from '../../support/noteNeedsApproval.js';
import { dataFrames, readUntil } from '../../support/readSse.js';
import { answerApproval, createRun } from '../../support/runsClient.js';
import { answer, frames, toolCalls, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';
import { SMART, useRoutedGateway } from '../../support/startRoutedGateway.js';

// Issue 28: the spans of a request, from the server span to each model call and tool, cancellation included.

const gateways = useLlmGateway();
const startRouted = useRoutedGateway();
const INCOMING_TRACE = '0af7651916cd43dd8448eb211c80319c';
const INCOMING_SPAN = 'b7ad6b7169203331';

async function start(scripts: readonly UpstreamScript[], agent: Parameters<typeof gateways.start>[1] = {}, captureContent = false) {
  const traces = memoryTracing({ captureContent });
  const started = await gateways.start(scripts, agent, {}, { tracing: traces.tracing });
  return { ...started, traces };
}

function chat(url: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}, signal?: AbortSignal) {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'rxgate-agent', stream: true, messages: [{ role: 'user', content: 'what is 6*7?' }], ...body }),
    signal,
  });
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;
const eventNames = (span: ReadableSpan) => span.events.map((event) => event.name);
const inOrder = (spans: ReadableSpan[]) => spans.sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);

/** Resolves once the server span of the request named `name` has ended, with nothing left open. */
async function settled(traces: MemoryTracing, name: string): Promise<void> {
  await expect.poll(() => traces.spans().some((span) => span.name === name)).toBe(true);
  await expect.poll(() => traces.open()).toEqual([]);
}

const calculatorCall = toolCalls({ id: 'call_calc', name: 'calculator', fragments: ['{"expression":', '"6*7"}'] });

describe('the spans of a streaming chat with a tool call', () => {
  it('continue the incoming trace: server span, invoke_agent, a chat span per model call, execute_tool; one traceparent per upstream call', async () => {
    const { upstream, gateway, traces } = await start([calculatorCall, answer('42')]);
    const response = await chat(gateway.url, {}, { traceparent: `00-${INCOMING_TRACE}-${INCOMING_SPAN}-01` });
    expect(await response.text()).toContain('data: [DONE]');
    await settled(traces, 'POST /v1/chat/completions');

    const server = traces.span('POST /v1/chat/completions');
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(server.spanContext().traceId).toBe(INCOMING_TRACE);
    expect(parentOf(server)).toBe(INCOMING_SPAN);
    expect(server.attributes).toMatchObject({
      'http.route': '/v1/chat/completions',
      'http.response.status_code': 200,
      'rxgate.outcome': 'completed',
    });

    const agent = traces.span('invoke_agent');
    expect(parentOf(agent)).toBe(idOf(server));
    expect(agent.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.request.model': 'rxgate-agent',
      'gen_ai.usage.input_tokens': 30,
      'gen_ai.response.finish_reasons': ['stop'],
    });

    const calls = inOrder(traces.spans().filter((span) => span.name === 'chat rxgate-agent'));
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.kind).toBe(SpanKind.CLIENT);
      expect(parentOf(call)).toBe(idOf(agent));
      expect(call.status.code).toBe(SpanStatusCode.UNSET);
      expect(call.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'rxgate-agent',
        'gen_ai.response.id': 'chatcmpl-up',
        'gen_ai.response.model': 'up',
        'gen_ai.response.time_to_first_chunk': expect.any(Number),
      });
      expect(call.attributes['gen_ai.input.messages']).toBeUndefined();
    }
    expect(calls.map((call) => call.attributes['gen_ai.response.finish_reasons'])).toEqual([['tool_calls'], ['stop']]);
    expect(calls.map((call) => call.attributes['rxgate.model_call'])).toEqual([1, 2]);

    // One attempt each, on the only upstream, under its model call.
    const attempts = inOrder(traces.spans().filter((span) => span.name === 'attempt default'));
    expect(attempts.map(parentOf)).toEqual(calls.map(idOf));
    for (const attempt of attempts) {
      expect(attempt.kind).toBe(SpanKind.CLIENT);
      expect(attempt.attributes).toMatchObject({
        'rxgate.upstream.id': 'default',
        'rxgate.upstream.attempt': 1,
        'rxgate.upstream.retry_wait': 0,
        'gen_ai.request.model': 'up-model',
        'server.address': '127.0.0.1',
        'server.port': Number(new URL(upstream.baseUrl).port),
      });
    }

    const tool = traces.span('execute_tool calculator');
    expect(parentOf(tool)).toBe(idOf(agent));
    expect(tool.attributes).toMatchObject({
      'gen_ai.tool.name': 'calculator',
      'gen_ai.tool.call.id': 'call_calc',
      'gen_ai.tool.type': 'function',
    });
    expect(tool.status.code).toBe(SpanStatusCode.UNSET);

    // Exactly one traceparent on each upstream request (two would arrive joined by a comma), its attempt's own.
    expect(upstream.requests.map((request) => request.headers.traceparent)).toEqual(
      attempts.map((attempt) => `00-${INCOMING_TRACE}-${idOf(attempt)}-01`),
    );
    expect(await gateway.log.next((line) => line.msg === 'request')).toMatchObject({ trace_id: INCOMING_TRACE });
  });

  it('carry the messages, the answer and the tool arguments and result only with content capture on', async () => {
    const { gateway, traces } = await start([calculatorCall, answer('4', '2')], {}, true);
    await (await chat(gateway.url)).text();
    await settled(traces, 'POST /v1/chat/completions');

    const last = traces.spans().filter((span) => span.name === 'chat rxgate-agent' && span.attributes['rxgate.model_call'] === 2)[0]!;
    expect(JSON.parse(String(last.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'what is 6*7?' }] },
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_calc', name: 'calculator', arguments: '{"expression":"6*7"}' }] },
      { role: 'tool', id: 'call_calc', parts: [{ type: 'text', content: '42' }] },
    ]);
    expect(JSON.parse(String(last.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: '42' }] },
    ]);
    expect(traces.span('execute_tool calculator').attributes).toMatchObject({
      'gen_ai.tool.call.arguments': '{"expression":"6*7"}',
      'gen_ai.tool.call.result': '42',
    });
  });
});

describe('a client that leaves', () => {
  it('mid-stream ends every open span of its request at that moment, with rxgate.client_disconnected and the reason, none an error', async () => {
    const { upstream, gateway, traces } = await start([{ steps: [frames.role(), frames.text('first'), { stall: true }] }]);
    const controller = new AbortController();
    const response = await chat(gateway.url, {}, {}, controller.signal);
    await readUntil(response.body!, (text) => text.includes('first'));
    controller.abort();
    await upstream.requests[0]!.closed;
    await settled(traces, 'POST /v1/chat/completions');

    for (const name of ['POST /v1/chat/completions', 'invoke_agent', 'chat rxgate-agent', 'attempt default']) {
      const span = traces.span(name);
      expect(eventNames(span), name).toEqual(['rxgate.client_disconnected']);
      expect(span.events[0]!.attributes).toEqual({ 'rxgate.interrupt_reason': InterruptReason.clientDisconnected });
      expect(span.status.code, name).toBe(SpanStatusCode.UNSET);
    }
  });

  it('during a tool ends the tool span too', async () => {
    let toolStarted!: () => void;
    const started = new Promise<void>((resolve) => (toolStarted = resolve));
    const waitTool = defineTool({
      name: 'wait',
      description: 'waits until aborted',
      parameters: z.object({}),
      run: (_args, signal) => {
        toolStarted();
        return new Promise<string>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      },
    });
    const { gateway, traces } = await start([toolCalls({ id: 'call_wait', name: 'wait', fragments: ['{}'] })], { tools: [waitTool] });
    const controller = new AbortController();
    const response = await chat(gateway.url, {}, {}, controller.signal);
    void readUntil(response.body!, () => false).catch(() => undefined);
    await started;
    controller.abort();
    await settled(traces, 'POST /v1/chat/completions');

    const tool = traces.span('execute_tool wait');
    expect(eventNames(tool)).toEqual(['rxgate.client_disconnected']);
    expect(tool.status.code).toBe(SpanStatusCode.UNSET);
    expect(eventNames(traces.span('invoke_agent'))).toEqual(['rxgate.client_disconnected']);
    // The model call that asked for the tool had ended normally before.
    expect(eventNames(traces.span('chat rxgate-agent'))).toEqual([]);
  });
});

describe('an upstream that fails after content', () => {
  it('is an error on the model call and the run, with the error frame code as error.type', async () => {
    const { gateway, traces } = await start([{ steps: [frames.role(), frames.text('partial'), { reset: true }] }]);
    const frames_ = dataFrames(await (await chat(gateway.url)).text());
    const code = (frames_.at(-1) as { error: { code: string } }).error.code;
    expect(code).toBe('upstream_dropped');
    await settled(traces, 'POST /v1/chat/completions');

    for (const name of ['attempt default', 'chat rxgate-agent', 'invoke_agent']) {
      const span = traces.span(name);
      expect(span.status.code, name).toBe(SpanStatusCode.ERROR);
      expect(span.attributes['error.type'], name).toBe(code);
      expect(eventNames(span), name).toEqual([]);
    }
    // The HTTP exchange itself was a 200 whose stream ended with an error frame.
    expect(traces.span('POST /v1/chat/completions').status.code).toBe(SpanStatusCode.UNSET);
  });
});

describe('a model call that fails over', () => {
  it('has a span per attempt: the first an error, the second fine, each upstream request carrying its own', async () => {
    const traces = memoryTracing();
    const down: UpstreamScript = {
      status: 503,
      headers: { 'content-type': 'application/json' },
      steps: [{ raw: JSON.stringify({ error: { message: 'down' } }) }],
    };
    const { gateway, scripted } = await startRouted(
      { main: [down], backup: [answer('from backup')] },
      SMART,
      {},
      { tracing: traces.tracing },
    );
    const response = await chat(gateway.url, { model: 'smart' }, { traceparent: `00-${INCOMING_TRACE}-${INCOMING_SPAN}-01` });
    expect(await response.text()).toContain('data: [DONE]');
    await settled(traces, 'POST /v1/chat/completions');

    const call = traces.span('chat smart');
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
    expect(call.attributes).toMatchObject({ 'gen_ai.response.id': 'chatcmpl-up', 'gen_ai.response.model': 'up' });
    const main = traces.span('attempt main');
    const backup = traces.span('attempt backup');
    expect([parentOf(main), parentOf(backup)]).toEqual([idOf(call), idOf(call)]);
    expect(main.attributes).toMatchObject({
      'rxgate.upstream.id': 'main',
      'rxgate.upstream.attempt': 1,
      'rxgate.route': 'smart',
      'gen_ai.request.model': 'main-model',
      'error.type': 'upstream_bad_status',
    });
    expect(main.status.code).toBe(SpanStatusCode.ERROR);
    expect(backup.attributes).toMatchObject({
      'rxgate.upstream.id': 'backup',
      'rxgate.upstream.attempt': 2,
      'rxgate.upstream.retry_wait': 0,
      'gen_ai.request.model': 'backup-model',
      'gen_ai.response.id': 'chatcmpl-up',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(scripted('backup').baseUrl).port),
    });
    expect(backup.attributes['error.type']).toBeUndefined();
    expect(backup.status.code).toBe(SpanStatusCode.UNSET);
    expect(eventNames(backup)).toEqual([]);

    // Exactly one traceparent on each upstream request, naming its own attempt.
    expect(
      [scripted('main'), scripted('backup')].map((upstream) => upstream.requests.map((request) => request.headers.traceparent)),
    ).toEqual([[`00-${INCOMING_TRACE}-${idOf(main)}-01`], [`00-${INCOMING_TRACE}-${idOf(backup)}-01`]]);
  });
});

describe('a routed gateway with tracing on', () => {
  it('still lists its routes and refuses an unknown model with 404 model_not_found', async () => {
    const traces = memoryTracing();
    const { gateway, scripted } = await startRouted({ main: [answer('x')], backup: [answer('y')] }, SMART, {}, { tracing: traces.tracing });
    const list = (await (await fetch(`${gateway.url}/v1/models`)).json()) as { data: { id: string }[] };
    expect(list.data.map((model) => model.id)).toEqual(['smart']);
    const response = await chat(gateway.url, { model: 'nope' });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('model_not_found');
    expect(scripted('main').requests).toHaveLength(0);
  });
});

describe('a run with an approval', () => {
  it('belongs to the trace of the request that started it; the approval wait is on the tool span', async () => {
    const { gateway, traces } = await start(
      [toolCalls({ id: 'call_note', name: 'note', fragments: ['{"text":"milk"}'] }), answer('Noted.')],
      NOTE_NEEDS_APPROVAL,
    );
    const runId = await createRun(gateway.url, 'note milk');
    const events = await followRun(gateway.url, runId);
    const required = await events.until<{ approval_id: string; trace_id: string }>('approval.required');
    expect((await answerApproval(gateway.url, runId, { approval_id: required.approval_id, choice: 'once' })).status).toBe(200);
    const completed = await events.until('run.completed');
    events.leave();
    await expect.poll(() => traces.spans().some((span) => span.name === 'invoke_agent')).toBe(true);

    const started = traces.span('POST /v1/runs');
    const agent = traces.span('invoke_agent');
    expect(agent.spanContext().traceId).toBe(started.spanContext().traceId);
    // The run's events name that trace.
    expect([required.trace_id, completed.trace_id]).toEqual(Array(2).fill(started.spanContext().traceId));
    expect(parentOf(agent)).toBe(idOf(started));
    const tool = traces.span('execute_tool note');
    expect(parentOf(tool)).toBe(idOf(agent));
    expect(eventNames(tool)).toEqual(['rxgate.approval_required', 'rxgate.approval_resolved']);
    expect(tool.events[1]!.attributes).toMatchObject({ 'rxgate.approval.choice': 'once', 'rxgate.approval_id': required.approval_id });

    // The follower's request is a trace of its own, linked to the request that started the run.
    await expect.poll(() => traces.spans().some((span) => span.name === 'GET /v1/runs/:id/events')).toBe(true);
    const follower = traces.span('GET /v1/runs/:id/events');
    expect(follower.spanContext().traceId).not.toBe(started.spanContext().traceId);
    expect(follower.links.map((link) => link.context)).toEqual([
      { traceId: started.spanContext().traceId, spanId: idOf(started), traceFlags: TraceFlags.SAMPLED },
    ]);
  });
});

describe('a Responses API request', () => {
  it('is a server span, invoke_agent and its model call', async () => {
    const { gateway, traces } = await start([answer('Hi')]);
    const response = await fetch(`${gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rxgate-agent', input: 'hello', stream: true }),
    });
    expect(await response.text()).toContain('response.completed');
    await settled(traces, 'POST /v1/responses');

    const server = traces.span('POST /v1/responses');
    const agent = traces.span('invoke_agent');
    expect(parentOf(agent)).toBe(idOf(server));
    const call = traces.span('chat rxgate-agent');
    expect(parentOf(call)).toBe(idOf(agent));
    expect(parentOf(traces.span('attempt default'))).toBe(idOf(call));
    expect(traces.spans().map((span) => span.spanContext().traceId)).toEqual(Array(4).fill(server.spanContext().traceId));
  });
});
