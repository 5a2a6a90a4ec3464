import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createLlmAgent } from '../../../../src/agent/llm/createLlmAgent.js';
import { RedisCoordinator } from '../../../../src/store/redis/RedisCoordinator.js';
import { RedisStore } from '../../../../src/store/redis/RedisStore.js';
import { startOwnRedis } from '../../../support/ownRedis.js';
import { answer, createScriptedUpstream, type UpstreamScript } from '../../../support/scriptedUpstream.js';
import { startApp } from '../../../support/startApp.js';
import { watchedLogger } from '../../../support/watchedLogger.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', body: JSON.stringify(body) });

async function until(check: () => Promise<boolean>, withinMs: number): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`not within ${withinMs} ms`);
    await delay(50);
  }
}

/** A gateway with a coordinator on a redis-server of the test's own and one scripted upstream, all closed after the test. */
async function gatewayOnOwnRedis(script: UpstreamScript, maxConcurrent: number) {
  const redis = await startOwnRedis();
  cleanups.push(redis.stop);
  const upstream = await createScriptedUpstream([script]);
  cleanups.push(() => upstream.close());
  const { logger } = watchedLogger();
  const store = await RedisStore.open({ url: redis.url, logger });
  cleanups.push(() => store.close());
  const coordinator = await RedisCoordinator.start(store, { leaseMs: 600, maxConcurrent, logger });
  cleanups.push(() => coordinator.close());
  const agent = createLlmAgent({ baseUrl: upstream.baseUrl, model: 'up-model', tools: [], logger });
  const app = await startApp(agent, {}, { store, coordinator, logger });
  cleanups.push(() => app.close());
  return { redis, upstream, store, app };
}

describe('Redis going away under a running gateway', () => {
  it('refuses new runs with 503 store_unavailable, keeps streaming chat completions, reports it, and recovers by itself', async () => {
    const { redis, app } = await gatewayOnOwnRedis(answer('fine'), 4);

    expect((await post(`${app.url}/v1/runs`, { input: 'hi' })).status).toBe(202);
    await redis.stop();

    const refused = await post(`${app.url}/v1/runs`, { input: 'hi' });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { type: 'server_error', code: 'store_unavailable' } });
    const chat = await post(`${app.url}/v1/chat/completions`, { messages: [{ role: 'user', content: 'hi' }], stream: true });
    expect(chat.status).toBe(200);
    expect(await chat.text()).toContain('data: [DONE]');
    const ready = await fetch(`${app.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(JSON.stringify(await ready.json())).toContain('Redis is not reachable');

    await redis.start();
    await until(async () => (await fetch(`${app.url}/health/ready`)).status === 200, 10_000);
    expect((await post(`${app.url}/v1/runs`, { input: 'hi' })).status).toBe(202);
  }, 30_000);

  it('counts again, once Redis restarted empty, the runs in flight here: the cluster-wide cap still holds', async () => {
    const { redis, upstream, store, app } = await gatewayOnOwnRedis({ steps: [{ stall: true }] }, 1);
    expect((await post(`${app.url}/v1/runs`, { input: 'hi' })).status).toBe(202);
    await upstream.request(0);

    await redis.stop();
    await redis.start();
    await until(async () => store.redis.isReady && (await store.redis.zCard(store.keys.leases())) === 1, 10_000);
    const refused = await post(`${app.url}/v1/runs`, { input: 'hi' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { code: 'too_many_runs' } });
  }, 30_000);
});
