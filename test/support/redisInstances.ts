import { pino } from 'pino';
import { afterEach } from 'vitest';
import { createLlmAgent, type LlmAgentOptions } from '../../src/agent/llm/createLlmAgent.js';
import type { AppConfig } from '../../src/http/createApp.js';
import type { RetentionPolicy } from '../../src/store/retentionPolicy.js';
import type { Store } from '../../src/store/Store.js';
import { RedisCoordinator } from '../../src/store/redis/RedisCoordinator.js';
import { RedisStore } from '../../src/store/redis/RedisStore.js';
import type { RedisTarget } from '../../src/store/redis/connectRedis.js';
import { removeKeysUnder, SHARED_REDIS, testPrefix } from './redisTest.js';
import { createScriptedUpstream, type ScriptedUpstream, type UpstreamScript } from './scriptedUpstream.js';
import { startApp, type TestApp } from './startApp.js';

export interface Instance extends TestApp {
  readonly store: RedisStore;
  readonly coordinator: RedisCoordinator;
}

/** A short lease, so that a dead instance is found within a test's time. */
export const TEST_LEASE_MS = 600;

/**
 * rxgate instances in this process that share one Redis (a key prefix of this test's own, removed
 * after it) and one scripted upstream, each with its own store connections, coordinator and
 * server; all closed after each test. `target` is the Redis (the shared one unless given), read
 * when the instances start, so that a suite may start its own in `beforeAll`. `wrap` gives instance
 * `index` a store around its own (a `holdingStore`, say); `Instance.store` stays the Redis one.
 */
export function useInstances(target: () => RedisTarget = () => SHARED_REDIS) {
  let upstream: ScriptedUpstream | undefined;
  let prefix: string | undefined;
  const instances: Instance[] = [];
  afterEach(async () => {
    for (const instance of instances.splice(0)) await instance.close();
    await upstream?.close();
    if (prefix) await removeKeysUnder(prefix, target());
    upstream = undefined;
    prefix = undefined;
  });
  return {
    async start(
      scripts: readonly UpstreamScript[],
      count: number,
      overrides: Partial<AppConfig> = {},
      retention?: RetentionPolicy,
      agentOptions: Pick<LlmAgentOptions, 'tools' | 'requireApproval' | 'maxIterations'> = {},
      wrap: (store: Store, index: number) => Store = (store) => store,
    ) {
      upstream = await createScriptedUpstream(scripts);
      prefix = testPrefix();
      const started: Instance[] = [];
      for (let index = 0; index < count; index++) {
        // Every level serialised, none kept: the leak check measures the instances, not their logs.
        const logger = pino({ level: 'trace' }, { write: () => undefined });
        const store = await RedisStore.open({ ...target(), prefix, logger, retention });
        const coordinator = await RedisCoordinator.start(store, {
          leaseMs: TEST_LEASE_MS,
          maxConcurrent: overrides.maxConcurrentRuns ?? 16,
          logger,
        });
        const agent = createLlmAgent({ baseUrl: upstream.baseUrl, model: 'up-model', tools: [], logger, ...agentOptions });
        const app = await startApp(agent, overrides, { store: wrap(store, index), coordinator, logger });
        const instance: Instance = {
          ...app,
          store,
          coordinator,
          close: async () => {
            await app.close();
            await coordinator.close();
            await store.close();
          },
        };
        instances.push(instance);
        started.push(instance);
      }
      return { upstream, instances: started, prefix };
    },
  };
}
