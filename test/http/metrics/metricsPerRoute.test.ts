import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../../src/agent/agent.js';
import { InterruptReason } from '../../../src/agent/interruptReason.js';
import { ManualAgent } from '../../support/manualAgent.js';
import { sampleOf } from '../../support/metricSamples.js';
import { readUntil } from '../../support/readSse.js';
import { finish, say, ScriptedAgent } from '../../support/scriptedAgent.js';
import { startApp, type TestApp } from '../../support/startApp.js';

// Each API, scraped from its own /metrics: its requests counted under its own route pattern with
// their status and outcome, its in-flight gauge back to 0, its duration observed by outcome, and
// the SSE bytes it wrote under its route.

let app: TestApp | undefined;
afterEach(async () => {
  await app?.activeRuns.stopAll(InterruptReason.shuttingDown);
  await app?.close();
  app = undefined;
});

async function open(agent: Agent): Promise<string> {
  app = await startApp(agent);
  return app.url;
}

const CHAT = '/v1/chat/completions';
const RESPONSES = '/v1/responses';
const RESPONSE = '/v1/responses/:id';
const RUN_EVENTS = '/v1/runs/:id/events';

const post = (url: string, body: unknown, signal?: AbortSignal) => fetch(url, { method: 'POST', body: JSON.stringify(body), signal });
const chat = (url: string, stream: boolean, signal?: AbortSignal) =>
  post(`${url}${CHAT}`, { stream, messages: [{ role: 'user', content: 'hi' }] }, signal);

/**
 * `GET /metrics`, scraped again until `until` holds (the access log counts a request once its
 * socket has closed, which may come after the client read the end), at most a hundred times.
 */
async function scrape(url: string, until: (metrics: string) => boolean = () => true): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const metrics = await (await fetch(`${url}/metrics`)).text();
    if (until(metrics) || attempt === 100) return metrics;
    await delay(10);
  }
}

const requests = (metrics: string, route: string, status: number, outcome: string) =>
  sampleOf(metrics, 'rxgate_requests_total', { route, status: String(status), outcome });

/** Scrapes once `route` has counted its request with this status and outcome. */
const scrapeCounted = (url: string, route: string, status: number, outcome: string) =>
  scrape(url, (metrics) => requests(metrics, route, status, outcome) !== undefined);

interface Outcome {
  readonly route: string;
  readonly status: number;
  readonly outcome: string;
  /** Whether the route answered with SSE, and so counted the bytes it wrote. */
  readonly sse: boolean;
  /** Responses of this outcome observed into the duration histogram so far. Default 1. */
  readonly durations?: number;
}

function expectCounted(metrics: string, { route, status, outcome, sse, durations = 1 }: Outcome): void {
  expect(requests(metrics, route, status, outcome), `${route} ${status} ${outcome}`).toBe(1);
  expect(sampleOf(metrics, 'rxgate_in_flight_streams', { route })).toBe(0);
  expect(sampleOf(metrics, 'rxgate_stream_duration_seconds_count', { outcome })).toBe(durations);
  const bytes = sampleOf(metrics, 'rxgate_sse_bytes_written_total', { route });
  if (sse) expect(bytes).toBeGreaterThan(0);
  else expect(bytes).toBeUndefined();
}

describe('chat completions', () => {
  it('streaming: completed', async () => {
    // Each step a timer after the one before: the answer goes out in several writes, not one.
    const url = await open(new ScriptedAgent([say('hello', 1), finish(1)]));
    expect(await (await chat(url, true)).text()).toContain('data: [DONE]');

    const metrics = await scrapeCounted(url, CHAT, 200, 'completed');
    expectCounted(metrics, { route: CHAT, status: 200, outcome: 'completed', sse: true });
    // Observed once, at the first write (the one that carries the headers).
    expect(sampleOf(metrics, 'rxgate_time_to_first_byte_seconds_count')).toBe(1);
  });

  // A short write goes out as a string; a long one (past Node's pooled size) is encoded by the writer.
  it.each([
    ['a short', 'wörld 🌍'],
    ['a long', 'wörld 🌍 '.repeat(600)],
  ])('streaming: counts the bytes of the body the client read, in UTF-8, with %s answer', async (_, text) => {
    const url = await open(new ScriptedAgent([say('héllo, '), say(text), finish()]));
    const body = Buffer.from(await (await chat(url, true)).arrayBuffer());
    expect(body.toString()).toContain('🌍');

    const metrics = await scrapeCounted(url, CHAT, 200, 'completed');
    expect(sampleOf(metrics, 'rxgate_sse_bytes_written_total', { route: CHAT })).toBe(body.length);
  });

  it('non-streaming: completed', async () => {
    const url = await open(new ScriptedAgent([say('hello'), finish()]));
    expect((await chat(url, false)).status).toBe(200);

    const metrics = await scrapeCounted(url, CHAT, 200, 'completed');
    expectCounted(metrics, { route: CHAT, status: 200, outcome: 'completed', sse: false });
    expect(sampleOf(metrics, 'rxgate_time_to_first_byte_seconds_count')).toBe(0);
  });

  it('streaming: a client that leaves mid-stream is client_disconnected, in flight until it leaves', async () => {
    const url = await open(new ScriptedAgent([say('waiting'), { silent: true }]));
    const controller = new AbortController();
    const stream = await chat(url, true, controller.signal);
    await readUntil(stream.body!, (text) => text.includes('waiting'));
    expect(sampleOf(await scrape(url), 'rxgate_in_flight_streams', { route: CHAT })).toBe(1);
    controller.abort();

    const metrics = await scrapeCounted(url, CHAT, 200, 'client_disconnected');
    expectCounted(metrics, { route: CHAT, status: 200, outcome: 'client_disconnected', sse: true });
    expect(sampleOf(metrics, 'rxgate_disconnect_to_interrupt_seconds_count')).toBe(1);
  });

  it('streaming: a stream that shutdown interrupts is shutdown', async () => {
    const url = await open(new ScriptedAgent([say('waiting'), { silent: true }]));
    const stream = await chat(url, true);
    await readUntil(stream.body!, (text) => text.includes('waiting'));
    await app!.activeRuns.stopAll(InterruptReason.shuttingDown);
    expect(await readUntil(stream.body!, () => false)).toContain('"code":"shutdown"');

    expectCounted(await scrapeCounted(url, CHAT, 200, 'shutdown'), { route: CHAT, status: 200, outcome: 'shutdown', sse: true });
  });

  it('non-streaming: a failed run is error, with its status', async () => {
    const url = await open(new ScriptedAgent([{ fail: new Error('broken') }]));
    expect((await chat(url, false)).status).toBe(500);

    expectCounted(await scrapeCounted(url, CHAT, 500, 'error'), { route: CHAT, status: 500, outcome: 'error', sse: false });
  });
});

describe('responses', () => {
  it('streaming: completed', async () => {
    const url = await open(new ScriptedAgent([say('hello'), finish()]));
    expect(await (await post(`${url}${RESPONSES}`, { input: 'hi', stream: true })).text()).toContain('event: response.completed');

    expectCounted(await scrapeCounted(url, RESPONSES, 200, 'completed'), {
      route: RESPONSES,
      status: 200,
      outcome: 'completed',
      sse: true,
    });
  });

  it('non-streaming: completed', async () => {
    const url = await open(new ScriptedAgent([say('hello'), finish()]));
    expect((await post(`${url}${RESPONSES}`, { input: 'hi' })).status).toBe(200);

    expectCounted(await scrapeCounted(url, RESPONSES, 200, 'completed'), {
      route: RESPONSES,
      status: 200,
      outcome: 'completed',
      sse: false,
    });
  });

  it('streaming: a client that leaves mid-stream is client_disconnected', async () => {
    const url = await open(new ScriptedAgent([say('waiting'), { silent: true }]));
    const controller = new AbortController();
    const stream = await post(`${url}${RESPONSES}`, { input: 'hi', stream: true }, controller.signal);
    await readUntil(stream.body!, (text) => text.includes('waiting'));
    controller.abort();

    expectCounted(await scrapeCounted(url, RESPONSES, 200, 'client_disconnected'), {
      route: RESPONSES,
      status: 200,
      outcome: 'client_disconnected',
      sse: true,
    });
  });

  it('non-streaming: a failed run is error, with its status', async () => {
    const url = await open(new ScriptedAgent([{ fail: new Error('broken') }]));
    expect((await post(`${url}${RESPONSES}`, { input: 'hi' })).status).toBe(500);

    expectCounted(await scrapeCounted(url, RESPONSES, 500, 'error'), { route: RESPONSES, status: 500, outcome: 'error', sse: false });
  });

  it('background create: the request completed at once, the detached run counted in flight until it ends', async () => {
    const agent = new ManualAgent();
    const url = await open(agent);
    expect((await post(`${url}${RESPONSES}`, { input: 'hi', background: true })).status).toBe(200);
    const run = await agent.started(0);
    expect(sampleOf(await scrapeCounted(url, RESPONSES, 200, 'completed'), 'rxgate_in_flight_runs')).toBe(1);
    run.events.complete();

    const metrics = await scrape(url, (scraped) => sampleOf(scraped, 'rxgate_in_flight_runs') === 0);
    expect(sampleOf(metrics, 'rxgate_in_flight_runs')).toBe(0);
    expect(requests(metrics, RESPONSES, 200, 'completed')).toBe(1);
    // A JSON answer that ran no agent in the request is not a response the duration histogram times.
    expect(sampleOf(metrics, 'rxgate_stream_duration_seconds_count', { outcome: 'completed' })).toBeUndefined();
  });

  it('background create, streaming: completed, followed to the end', async () => {
    const url = await open(new ScriptedAgent([say('hello'), finish()]));
    expect(await (await post(`${url}${RESPONSES}`, { input: 'hi', background: true, stream: true })).text()).toContain(
      'event: response.completed',
    );

    const metrics = await scrapeCounted(url, RESPONSES, 200, 'completed');
    expectCounted(metrics, { route: RESPONSES, status: 200, outcome: 'completed', sse: true });
    expect(sampleOf(metrics, 'rxgate_in_flight_runs')).toBe(0);
  });

  it('background replay (GET ?stream=true): completed, under its own route', async () => {
    const agent = new ManualAgent();
    const url = await open(agent);
    const { id } = (await (await post(`${url}${RESPONSES}`, { input: 'hi', background: true })).json()) as { id: string };
    const run = await agent.started(0);
    const replay = await fetch(`${url}${RESPONSES}/${id}?stream=true`);
    run.events.next({ type: 'text', delta: 'hello' });
    run.events.complete();
    expect(await replay.text()).toContain('event: response.completed');

    const metrics = await scrapeCounted(url, RESPONSE, 200, 'completed');
    expectCounted(metrics, { route: RESPONSE, status: 200, outcome: 'completed', sse: true });
    expect(sampleOf(metrics, 'rxgate_in_flight_runs')).toBe(0);
  });

  it('background replay: a follower that leaves is client_disconnected; the cancel that ends the run completed', async () => {
    const agent = new ManualAgent();
    const url = await open(agent);
    const { id } = (await (await post(`${url}${RESPONSES}`, { input: 'hi', background: true })).json()) as { id: string };
    const run = await agent.started(0);
    const controller = new AbortController();
    const replay = await fetch(`${url}${RESPONSES}/${id}?stream=true`, { signal: controller.signal });
    run.events.next({ type: 'text', delta: 'waiting' });
    await readUntil(replay.body!, (text) => text.includes('waiting'));
    controller.abort();
    expectCounted(await scrapeCounted(url, RESPONSE, 200, 'client_disconnected'), {
      route: RESPONSE,
      status: 200,
      outcome: 'client_disconnected',
      sse: true,
    });
    expect(run.interrupts).toEqual([]);

    expect((await post(`${url}${RESPONSES}/${id}/cancel`, {})).status).toBe(200);
    const metrics = await scrapeCounted(url, '/v1/responses/:id/cancel', 200, 'completed');
    expect(requests(metrics, '/v1/responses/:id/cancel', 200, 'completed')).toBe(1);
    expect(sampleOf(metrics, 'rxgate_in_flight_runs')).toBe(0);
    expect(run.interrupts).toEqual([InterruptReason.stopRequested]);
  });
});

describe('run events', () => {
  it('GET /v1/runs/{id}/events: completed, followed to the end', async () => {
    const url = await open(new ScriptedAgent([say('hello'), finish()]));
    const created = await post(`${url}/v1/runs`, { input: 'hi' });
    expect(created.status).toBe(202);
    const { run_id } = (await created.json()) as { run_id: string };
    expect(await (await fetch(`${url}/v1/runs/${run_id}/events`)).text()).toContain('event: run.completed');

    const metrics = await scrapeCounted(url, RUN_EVENTS, 200, 'completed');
    expectCounted(metrics, { route: RUN_EVENTS, status: 200, outcome: 'completed', sse: true });
    expect(requests(metrics, '/v1/runs', 202, 'completed')).toBe(1);
    expect(sampleOf(metrics, 'rxgate_in_flight_runs')).toBe(0);
  });

  it('a subscriber that leaves is client_disconnected and the run goes on; the stop is completed, and so is a stream of the stopped run', async () => {
    const agent = new ManualAgent();
    const url = await open(agent);
    const { run_id } = (await (await post(`${url}/v1/runs`, { input: 'hi' })).json()) as { run_id: string };
    const run = await agent.started(0);
    const controller = new AbortController();
    const events = await fetch(`${url}/v1/runs/${run_id}/events`, { signal: controller.signal });
    run.events.next({ type: 'text', delta: 'waiting' });
    await readUntil(events.body!, (text) => text.includes('waiting'));
    controller.abort();

    const left = await scrapeCounted(url, RUN_EVENTS, 200, 'client_disconnected');
    expectCounted(left, { route: RUN_EVENTS, status: 200, outcome: 'client_disconnected', sse: true });
    expect(sampleOf(left, 'rxgate_in_flight_runs')).toBe(1);

    expect((await post(`${url}/v1/runs/${run_id}/stop`, {})).status).toBe(200);
    expect(await (await fetch(`${url}/v1/runs/${run_id}/events`)).text()).toContain('event: run.cancelled');
    const stopped = await scrapeCounted(url, RUN_EVENTS, 200, 'completed');
    expect(requests(stopped, '/v1/runs/:id/stop', 200, 'completed')).toBe(1);
    expectCounted(stopped, { route: RUN_EVENTS, status: 200, outcome: 'completed', sse: true });
    expect(sampleOf(stopped, 'rxgate_in_flight_runs')).toBe(0);
    expect(run.interrupts).toEqual([InterruptReason.stopRequested]);
  });
});
