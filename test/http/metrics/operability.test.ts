import { createServer } from 'node:http';
import { Writable } from 'node:stream';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { UpstreamError } from '../../../src/errors/UpstreamError.js';
import { upstreamReadiness } from '../../../src/upstream/upstreamReadiness.js';
import { createApp } from '../../../src/http/createApp.js';
import { createAgentFor } from '../../../src/createAgentFor.js';
import { silentLogger } from '../../../src/logger.js';
import { createMetrics } from '../../../src/metrics/createMetrics.js';
import { startServer } from '../../../src/http/startServer.js';
import { answer, createScriptedUpstream } from '../../support/scriptedUpstream.js';
import { readUntil } from '../../support/readSse.js';
import { finish, say, ScriptedAgent, usage, type ScriptStep } from '../../support/scriptedAgent.js';
import { watchedLogger } from '../../support/watchedLogger.js';

/** A pino logger whose lines land in an array. */
function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

/** An agent whose runs follow one script each, in order. */
class SequenceAgent extends ScriptedAgent {
  #next = 0;
  constructor(private readonly scripts: readonly (readonly ScriptStep[])[]) {
    super([]);
  }
  override run(...args: Parameters<ScriptedAgent['run']>) {
    return new ScriptedAgent(this.scripts[this.#next++]!).run(...args);
  }
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function listen(app: Parameters<typeof createServer>[1]) {
  const server = createServer(app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const chat = (url: string, signal?: AbortSignal, headers: Record<string, string> = {}) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    signal,
  });

const sampleOf = (text: string, line: string) =>
  Number(
    text
      .split('\n')
      .find((l) => l.startsWith(line))
      ?.slice(line.length)
      .trim() ?? NaN,
  );

describe('operability', () => {
  it('counts completed, abandoned and failed streams, and times the disconnect-to-interrupt', async () => {
    const agent = new SequenceAgent([
      [say('one'), finish()],
      [say('two'), finish()],
      [say('waiting'), { silent: true }],
      [{ fail: new UpstreamError('bad_status', 'answered 500', 500) }],
    ]);
    const { app } = createApp({ agent, config: loadConfig({}) });
    const url = await listen(app);
    await (await chat(url)).text();
    await (await chat(url)).text();
    const controller = new AbortController();
    const abandoned = await chat(url, controller.signal);
    await readUntil(abandoned.body!, (text) => text.includes('waiting'));
    controller.abort();
    await (await chat(url)).text();
    await new Promise((resolve) => setImmediate(resolve));

    const metrics = await (await fetch(`${url}/metrics`)).text();
    const requests = (outcome: string, status = 200) =>
      sampleOf(metrics, `rxgate_requests_total{route="/v1/chat/completions",status="${status}",outcome="${outcome}"}`);
    expect(requests('completed')).toBe(2);
    expect(requests('client_disconnected')).toBe(1);
    expect(requests('error')).toBe(1);
    expect(sampleOf(metrics, 'rxgate_disconnect_to_interrupt_seconds_count')).toBe(1);
    expect(sampleOf(metrics, 'rxgate_upstream_errors_total{kind="bad_status"}')).toBe(1);
    expect(sampleOf(metrics, 'rxgate_in_flight_streams{route="/v1/chat/completions"}')).toBe(0);
    expect(metrics).toContain('rxgate_process_resident_memory_bytes');
    expect(metrics).toContain('rxgate_nodejs_eventloop_lag_seconds');
  });

  it('counts upstream calls by status and the tokens they report', async () => {
    const upstream = await createScriptedUpstream([answer('Hello', ' there'), { status: 500, steps: [{ raw: 'boom' }] }]);
    closers.push(() => upstream.close());
    const config = loadConfig({ RXGATE_UPSTREAM_URL: upstream.baseUrl, RXGATE_UPSTREAM_MODEL: 'up', RXGATE_TOOLS: '' });
    const metrics = createMetrics();
    const { app } = createApp({ agent: createAgentFor(config, silentLogger, { metrics }), config, metrics });
    const url = await listen(app);
    await (await chat(url, undefined, { 'x-request-id': 'trace-1' })).text();
    await (await chat(url)).text();

    expect(upstream.requests[0]!.headers['x-request-id']).toBe('trace-1');
    const scraped = await (await fetch(`${url}/metrics`)).text();
    expect(sampleOf(scraped, 'rxgate_upstream_requests_total{status="200"}')).toBe(1);
    expect(sampleOf(scraped, 'rxgate_upstream_requests_total{status="500"}')).toBe(1);
    expect(sampleOf(scraped, 'rxgate_upstream_errors_total{kind="bad_status"}')).toBe(1);
    expect(sampleOf(scraped, 'rxgate_tokens_total{direction="in"}')).toBe(10);
    expect(sampleOf(scraped, 'rxgate_tokens_total{direction="out"}')).toBe(2);
  });

  it('records tokens for the Responses and Runs APIs too, not only chat completions', async () => {
    const agent = new SequenceAgent([
      [say('one'), usage(3, 1), finish()],
      [say('two'), usage(5, 2), finish()],
    ]);
    const { app } = createApp({ agent, config: loadConfig({}) });
    const url = await listen(app);
    await (await fetch(`${url}/v1/responses`, { method: 'POST', body: JSON.stringify({ input: 'hi' }) })).json();
    const { run_id } = (await (await fetch(`${url}/v1/runs`, { method: 'POST', body: JSON.stringify({ input: 'hi' }) })).json()) as {
      run_id: string;
    };
    await (await fetch(`${url}/v1/runs/${run_id}/events`)).text();

    const scraped = await (await fetch(`${url}/metrics`)).text();
    expect(sampleOf(scraped, 'rxgate_tokens_total{direction="in"}')).toBe(8);
    expect(sampleOf(scraped, 'rxgate_tokens_total{direction="out"}')).toBe(3);
  });

  it('returns the request id, accepts the client one, and puts it on the log line', async () => {
    const { logger, lines } = memoryLogger();
    const { app } = createApp({ agent: new ScriptedAgent([say('x'), finish()]), config: loadConfig({}), logger });
    const url = await listen(app);
    const generated = await chat(url);
    await generated.text();
    const offered = await chat(url, undefined, { 'x-request-id': 'req-42', authorization: 'Bearer never-logged' });
    await offered.text();
    await new Promise((resolve) => setImmediate(resolve));

    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(offered.headers.get('x-request-id')).toBe('req-42');
    expect(lines.find((line) => line.requestId === 'req-42')).toMatchObject({
      msg: 'request',
      method: 'POST',
      status: 200,
      outcome: 'completed',
    });
    expect(JSON.stringify(lines)).not.toContain('never-logged');
  });

  it('puts the interrupt reason and the usage so far on the log line of a client that left', async () => {
    const log = watchedLogger();
    const { app } = createApp({
      agent: new ScriptedAgent([usage(5, 2), say('waiting'), { silent: true }]),
      config: loadConfig({}),
      logger: log.logger,
    });
    const url = await listen(app);
    const controller = new AbortController();
    const stream = await chat(url, controller.signal);
    await readUntil(stream.body!, (text) => text.includes('waiting'));
    controller.abort();

    expect(await log.next((line) => line.msg === 'request')).toMatchObject({
      status: 200,
      outcome: 'client_disconnected',
      interruptReason: 'SSE client disconnected',
      usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 },
    });
  });

  it('turns readiness to 503 while shutting down', async () => {
    const agent = new ScriptedAgent([say('slow'), { silent: true }]);
    const running = await startServer({ agent, config: loadConfig({ RXGATE_PORT: '0' }) });
    expect((await fetch(`${running.url}/health/ready`)).status).toBe(200);
    const controller = new AbortController();
    const stream = await chat(running.url, controller.signal);
    await readUntil(stream.body!, (text) => text.includes('slow'));
    const shutdown = running.shutdown(5_000);
    // The server no longer accepts connections, so ask the readiness the route answers from.
    expect(await running.readiness.reasons()).toEqual(['shutting down']);
    controller.abort();
    await shutdown;
  });

  it('shows the details a readiness check gives (the mcp section) whether or not it is ready', async () => {
    const { app, readiness } = createApp({ agent: new ScriptedAgent([]), config: loadConfig({}) });
    let connecting = true;
    const states = () => [{ name: 'files', status: connecting ? 'connecting' : 'ready' }];
    readiness.add({ name: 'mcp', check: async () => (connecting ? 'still connecting to files' : undefined), details: states });
    const url = await listen(app);

    const waiting = await fetch(`${url}/health/ready`);
    expect(waiting.status).toBe(503);
    expect(await waiting.json()).toEqual({
      status: 'not_ready',
      reasons: ['mcp: still connecting to files'],
      mcp: [{ name: 'files', status: 'connecting' }],
    });
    connecting = false;
    const ready = await fetch(`${url}/health/ready`);
    expect(await ready.json()).toEqual({ status: 'ready', mcp: [{ name: 'files', status: 'ready' }] });
  });

  it('answers 503 on /health/ready with the reason while shutting down', async () => {
    const { app, readiness } = createApp({ agent: new ScriptedAgent([]), config: loadConfig({}) });
    const url = await listen(app);
    readiness.markShuttingDown();
    const response = await fetch(`${url}/health/ready`);

    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'not_ready', reasons: ['shutting down'] });
  });

  it('turns readiness to 503 with a reason when the upstream is down', async () => {
    const down = createServer().listen(0, '127.0.0.1');
    await once(down, 'listening');
    const { port } = down.address() as AddressInfo;
    await new Promise((resolve) => down.close(resolve));
    const { app, readiness } = createApp({ agent: new ScriptedAgent([]), config: loadConfig({}) });
    readiness.add(upstreamReadiness({ baseUrl: `http://127.0.0.1:${port}/v1` }));
    const url = await listen(app);
    const response = await fetch(`${url}/health/ready`);

    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'not_ready', reasons: ['upstream: upstream unreachable (connection failed)'] });
  });
});
