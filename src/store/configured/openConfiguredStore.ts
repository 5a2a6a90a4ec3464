import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { Coordinator } from '../Coordinator.js';
import type { KeyLimits } from '../KeyLimits.js';
import { RedisCoordinator } from '../redis/RedisCoordinator.js';
import { RedisKeyLimits } from '../redis/RedisKeyLimits.js';
import { RedisStore } from '../redis/RedisStore.js';
import { retentionPolicy } from '../retentionPolicy.js';
import { SqliteStore } from '../sqlite/SqliteStore.js';
import type { Store } from '../Store.js';

/** The store the settings choose, with the coordinator that goes with it. */
export interface ConfiguredStore {
  readonly store: Store;
  /** Undefined for SQLite: the app coordinates its one process itself. */
  readonly coordinator?: Coordinator;
  /** Undefined for SQLite: the app counts its one process's key limits itself. */
  readonly keyLimits?: KeyLimits;
  /** Closes the coordinator (its lease then lapses), then the store. */
  close(): Promise<void>;
}

type StoreSettings = Pick<
  Config,
  | 'dataDir'
  | 'redisUrl'
  | 'redisCluster'
  | 'redisPrefix'
  | 'redisLeaseMs'
  | 'maxConcurrentRuns'
  | 'retentionMaxItems'
  | 'retentionMaxAgeDays'
  | 'usageRetentionDays'
>;

/** Redis when `RXGATE_REDIS_URL` is set (several instances share it), else SQLite in `RXGATE_DATA_DIR` (one process). */
export async function openConfiguredStore(config: StoreSettings, logger: Logger): Promise<ConfiguredStore> {
  const retention = retentionPolicy(config);
  if (!config.redisUrl) {
    const store = new SqliteStore({ dataDir: config.dataDir, retention });
    return { store, close: () => store.close() };
  }
  const store = await RedisStore.open({
    url: config.redisUrl,
    cluster: config.redisCluster,
    prefix: config.redisPrefix,
    retention,
    leaseMs: config.redisLeaseMs,
    logger,
  });
  const coordinator = await RedisCoordinator.start(store, {
    leaseMs: config.redisLeaseMs,
    maxConcurrent: config.maxConcurrentRuns,
    logger,
  }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  return {
    store,
    coordinator,
    keyLimits: new RedisKeyLimits(store.redis, store.keys, config.redisLeaseMs),
    close: async () => {
      await coordinator.close();
      await store.close();
    },
  };
}
