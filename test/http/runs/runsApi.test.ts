import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../../src/agent/agent.js';
import { InterruptReason } from '../../../src/agent/interruptReason.js';
import { createLlmAgent } from '../../../src/agent/llm/createLlmAgent.js';
import type { AppConfig } from '../../../src/http/createApp.js';
import { ManualAgent } from '../../support/manualAgent.js';
import { createScriptedUpstream, frames, type ScriptedUpstream } from '../../support/scriptedUpstream.js';
import { followRun } from '../../support/followRun.js';
import { createRun, post } from '../../support/runsClient.js';
import { startApp, type TestApp } from '../../support/startApp.js';

let app: TestApp | undefined;
let upstream: ScriptedUpstream | undefined;
afterEach(async () => {
  await app?.close();
  await upstream?.close();
  app = undefined;
  upstream = undefined;
});

async function start(agent: Agent, overrides: Partial<AppConfig> = {}) {
  app = await startApp(agent, overrides);
  return app.url;
}

describe('the Runs API', () => {
  it('answers 202 at once, runs to completion unobserved, and reports status, output, usage and timestamps', async () => {
    const agent = new ManualAgent();
    const url = await start(agent);
    const runId = await createRun(url);
    const run = await agent.started(0);
    run.events.next({ type: 'text', delta: 'Hello' });
    run.events.next({ type: 'usage', usage: { inputTokens: 2, outputTokens: 1, totalTokens: 3 } });
    run.events.complete();

    const body = (await (await fetch(`${url}/v1/runs/${runId}`)).json()) as { started_at: number; completed_at: number };
    expect(body).toMatchObject({
      id: runId,
      object: 'run',
      status: 'completed',
      output: 'Hello',
      usage: { input_tokens: 2, output_tokens: 1, total_tokens: 3 },
      error: null,
    });
    expect(body.completed_at).toBeGreaterThanOrEqual(body.started_at);
    const events = await (await followRun(url, runId)).rest();
    expect(events.map((event) => [event.id, event.event])).toEqual([
      ['0', 'message.delta'],
      ['1', 'run.completed'],
    ]);
  });

  it('serves two subscribers; one leaves and resumes with Last-Event-ID and gets every event exactly once', async () => {
    const agent = new ManualAgent();
    const url = await start(agent);
    const runId = await createRun(url);
    const run = await agent.started(0);
    const a = await followRun(url, runId);
    const b = await followRun(url, runId);

    run.events.next({ type: 'text', delta: 'one' });
    const first = await a.next();
    await b.next();
    a.leave();
    run.events.next({ type: 'text', delta: 'two' });
    run.events.next({ type: 'tool_start', callId: 'c1', name: 'calculator', arguments: '{}' });
    await b.next();
    await b.next();

    const again = await followRun(url, runId, first!.id);
    expect(await again.next()).toMatchObject({
      id: '1',
      event: 'message.delta',
      data: JSON.stringify({ type: 'message.delta', delta: 'two' }),
    });
    run.events.next({ type: 'tool_end', callId: 'c1', name: 'calculator', result: '0', durationMs: 1 });
    run.events.next({ type: 'text', delta: 'three' });
    run.events.complete();
    const resumed = [...a.seen, ...(await again.rest())];
    const whole = await b.rest();

    expect(whole.map((event) => event.event)).toEqual([
      'message.delta',
      'message.delta',
      'tool.started',
      'tool.completed',
      'message.delta',
      'run.completed',
    ]);
    expect(whole.map((event) => event.id)).toEqual(['0', '1', '2', '3', '4', '5']);
    expect(resumed).toEqual(whole);
    expect(JSON.parse(whole.at(-1)!.data)).toMatchObject({ type: 'run.completed', output: 'onetwothree' });
    expect(run.interrupts).toEqual([]);
  });

  it('stops a run waiting on a silent upstream: the upstream socket closes and the run ends cancelled', async () => {
    upstream = await createScriptedUpstream([{ steps: [frames.role(), { stall: true }] }]);
    const url = await start(createLlmAgent({ baseUrl: upstream.baseUrl, model: 'up-model' }));
    const runId = await createRun(url);
    const request = await upstream.request(0);
    const subscriber = await followRun(url, runId);

    const stopped = await post(`${url}/v1/runs/${runId}/stop`);

    expect(stopped.status).toBe(200);
    expect(await stopped.json()).toMatchObject({ id: runId, status: 'cancelled' });
    expect(await request.closed).toMatchObject({ finished: false });
    const events = await subscriber.rest();
    expect(events.at(-1)).toMatchObject({
      event: 'run.cancelled',
      data: JSON.stringify({ type: 'run.cancelled', reason: InterruptReason.stopRequested }),
    });

    const again = await post(`${url}/v1/runs/${runId}/stop`);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      error: {
        message: `rxgate: run '${runId}' has already finished (status cancelled); only a running run can be stopped`,
        type: 'invalid_request_error',
        param: null,
        code: 'run_not_running',
      },
    });
    const unknown = await post(`${url}/v1/runs/run_nope/stop`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: { message: "rxgate: run 'run_nope' not found", type: 'not_found_error', param: null, code: 'run_not_found' },
    });
  });

  it('caps detached runs (runs and background responses) with a 429 in the OpenAI envelope', async () => {
    const agent = new ManualAgent();
    const url = await start(agent, { maxConcurrentRuns: 1 });
    const runId = await createRun(url);
    const envelope = {
      error: {
        message: 'rxgate: 1 runs are already in flight, the most RXGATE_MAX_CONCURRENT_RUNS allows (1); retry when one has finished',
        type: 'rate_limit_error',
        param: null,
        code: 'too_many_runs',
      },
    };

    const refused = await post(`${url}/v1/runs`, { input: 'hi' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual(envelope);
    const background = await post(`${url}/v1/responses`, { input: 'hi', background: true });
    expect(background.status).toBe(429);
    expect(await background.json()).toEqual(envelope);

    const subscriber = await followRun(url, runId);
    (await agent.started(0)).events.complete();
    await subscriber.rest();
    expect((await post(`${url}/v1/runs`, { input: 'hi' })).status).toBe(202);
  });

  it('is interrupted by shutdown with "Server shutting down" and ends failed', async () => {
    const agent = new ManualAgent();
    const url = await start(agent);
    const runId = await createRun(url);
    const run = await agent.started(0);

    await app!.activeRuns.stopAll(InterruptReason.shuttingDown);

    expect(run.interrupts).toEqual([InterruptReason.shuttingDown]);
    expect(await (await fetch(`${url}/v1/runs/${runId}`)).json()).toMatchObject({
      status: 'failed',
      error: { message: 'rxgate: Server shutting down', type: 'server_error', code: 'interrupted' },
    });
  });
});
