import { afterEach, describe, expect, it } from 'vitest';
import { InterruptReason } from '../../../src/agent/interruptReason.js';
import { blockEventLoop } from '../../support/blockEventLoop.js';
import { ManualAgent, type ManualRun } from '../../support/manualAgent.js';
import { readUntil } from '../../support/readSse.js';
import { startApp, type TestApp } from '../../support/startApp.js';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) {
    await app.activeRuns.stopAll(InterruptReason.shuttingDown);
    await app.close();
  }
});

async function open(agent: ManualAgent, maxEventLoopDelayMs: number): Promise<TestApp> {
  const app = await startApp(agent, { maxEventLoopDelayMs });
  apps.push(app);
  return app;
}

const chat = (url: string) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  });

/**
 * Opens a stream that the agent runs, asking again while it is shed: on a loaded machine a turn of
 * the test process itself can pass the 50 ms limit before the test has blocked anything.
 */
async function openRun(url: string, agent: ManualAgent): Promise<{ run: ManualRun; opened: Promise<Response> }> {
  for (;;) {
    const opened = chat(url);
    const outcome = await Promise.race([agent.started(0).then((run) => ({ run })), opened.then((response) => ({ response }))]);
    if ('run' in outcome) return { run: outcome.run, opened };
    expect(outcome.response.status).toBe(503);
    await outcome.response.body?.cancel();
  }
}

describe('overload (RXGATE_MAX_EVENT_LOOP_DELAY_MS)', () => {
  it('sheds new requests with 503 overloaded and Retry-After while a stream already open goes on, and answers /health throughout', async () => {
    const agent = new ManualAgent();
    const { url } = await open(agent, 50);
    // Its headers go out with its first bytes: the agent speaks before the answer is awaited.
    const { run, opened } = await openRun(url, agent);
    run.events.next({ type: 'text', delta: 'before ' });
    const body = (await opened).body!;
    expect(await readUntil(body, (text) => text.includes('before '))).toContain('before ');

    blockEventLoop(150);
    const shed = await chat(url);
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('1');
    expect(shed.headers.get('x-request-id')).toBeTruthy();
    const { error } = (await shed.json()) as { error: { code: string; type: string; message: string } };
    expect(error).toMatchObject({ code: 'overloaded', type: 'server_error' });
    expect(error.message).toMatch(/event loop is \d+ ms behind, over RXGATE_MAX_EVENT_LOOP_DELAY_MS \(50 ms\)/);
    expect(agent.runs).toHaveLength(1);

    expect((await fetch(`${url}/health`)).status).toBe(200);
    const ready = await fetch(`${url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { reasons: string[] }).reasons).toEqual([
      expect.stringMatching(/^event loop: overloaded, \d+ ms behind \(over 50 ms\)$/),
    ]);

    run.events.next({ type: 'text', delta: 'after' });
    run.events.next({ type: 'finish', reason: 'stop' });
    run.events.complete();
    const rest = await readUntil(body, (text) => text.includes('[DONE]'));
    expect(rest).toContain('after');
    expect(rest).toContain('data: [DONE]');
    expect(run.interrupts).toEqual([]);
  });

  it('takes requests again once the delay stayed under the limit for a second', async () => {
    const agent = new ManualAgent();
    const { url } = await open(agent, 50);
    blockEventLoop(150);
    expect((await chat(url)).status).toBe(503);
    // Once the loop keeps up (at once on a quiet machine, later on a loaded one), readiness and requests come back.
    await expect.poll(async () => (await fetch(`${url}/health/ready`)).status, { timeout: 15_000, interval: 100 }).toBe(200);
    const { run, opened } = await openRun(url, agent);
    run.events.next({ type: 'text', delta: 'taken' });
    expect((await opened).status).toBe(200);
    run.events.complete();
  });

  it('sheds nothing with 0, however late the loop', async () => {
    const agent = new ManualAgent();
    const { url } = await open(agent, 0);
    blockEventLoop(150);
    const taken = await chat(url);
    expect(taken.status).toBe(200);
    await taken.body!.cancel();
  });
});
