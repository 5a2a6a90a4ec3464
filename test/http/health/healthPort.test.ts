import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../../src/config.js';
import { startServer, type RunningServer } from '../../../src/http/startServer.js';
import { ProbeThread } from '../../support/probeThread.js';
import { finish, say, ScriptedAgent } from '../../support/scriptedAgent.js';

const running: RunningServer[] = [];
const probes: ProbeThread[] = [];
afterEach(async () => {
  for (const probe of probes.splice(0)) await probe.stop();
  for (const server of running.splice(0)) await server.shutdown(0);
});

async function start(settings: Record<string, string> = {}, reason: { now?: string } = {}): Promise<RunningServer> {
  const server = await startServer({
    agent: new ScriptedAgent([say('hi'), finish()]),
    config: loadConfig({ RXGATE_PORT: '0', RXGATE_HEALTH_PORT: '0', ...settings }),
    readinessChecks: [{ name: 'upstream', check: async () => reason.now }],
  });
  running.push(server);
  return server;
}

async function probe(origin: string): Promise<ProbeThread> {
  const thread = await ProbeThread.start(origin);
  probes.push(thread);
  return thread;
}

describe('the health listener (RXGATE_HEALTH_PORT)', () => {
  it('answers GET /health and GET /health/ready with what the main port says, and nothing else', async () => {
    const reason: { now?: string } = {};
    const server = await start({}, reason);
    expect(server.healthUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.healthUrl).not.toBe(server.url);

    const live = await fetch(`${server.healthUrl}/health`);
    expect(live.status).toBe(200);
    expect(live.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.healthUrl}/health/ready`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);

    reason.now = 'upstream answered 502';
    const notReady = await fetch(`${server.healthUrl}/health/ready`);
    expect([notReady.status, await notReady.json()]).toEqual([503, { status: 'not_ready', reasons: ['upstream: upstream answered 502'] }]);
    const onMainPort = await fetch(`${server.url}/health/ready`);
    expect([onMainPort.status, await onMainPort.json()]).toEqual([
      503,
      { status: 'not_ready', reasons: ['upstream: upstream answered 502'] },
    ]);

    const other = await fetch(`${server.healthUrl}/v1/models`);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({
      error: {
        message: 'no route for GET /v1/models: this port answers GET /health and GET /health/ready only',
        type: 'not_found_error',
        param: null,
        code: 'unknown_url',
      },
    });
    expect((await fetch(`${server.healthUrl}/health`, { method: 'POST' })).status).toBe(404);
  });

  it('answers GET /health while the main event loop is blocked', async () => {
    const server = await start();
    const thread = await probe(server.healthUrl!);
    expect(await thread.askWhileBlocked('/health')).toEqual({ status: 200, body: { status: 'ok' } });
    // The main port's /health, answered by the blocked loop, does not come while it is blocked.
    const onMainPort = await probe(server.url);
    expect(await onMainPort.askWhileBlocked('/health', 0, 300)).toBeUndefined();
  });

  it('reports overload on GET /health/ready from the heartbeat, without waiting for the blocked loop', async () => {
    const server = await start({ RXGATE_MAX_EVENT_LOOP_DELAY_MS: '50' });
    const thread = await probe(server.healthUrl!);
    // Asked 100 ms into the block: the main loop's next beat is overdue by more than the 50 ms limit.
    const answer = await thread.askWhileBlocked('/health/ready', 100);
    expect(answer).toEqual({
      status: 503,
      body: { status: 'not_ready', reasons: [expect.stringMatching(/^event loop: overloaded, \d+ ms behind \(over 50 ms\)$/)] },
    });
    const behind = Number(/overloaded, (\d+) ms/.exec((answer!.body as { reasons: string[] }).reasons[0]!)![1]);
    expect(behind).toBeGreaterThan(50);
  });

  it('closes with the server', async () => {
    const server = await start();
    await server.shutdown(0);
    running.length = 0;
    await expect(fetch(`${server.healthUrl}/health`)).rejects.toThrow();
  });

  it('fails startup, naming RXGATE_HEALTH_PORT, when its port is taken', async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const { port } = taken.address() as AddressInfo;
    try {
      await expect(start({ RXGATE_HEALTH_PORT: String(port) })).rejects.toThrow(
        new RegExp(`^rxgate: RXGATE_HEALTH_PORT=${port}: the health listener cannot listen on 127\\.0\\.0\\.1:${port}: listen EADDRINUSE`),
      );
    } finally {
      taken.close();
    }
  });
});
