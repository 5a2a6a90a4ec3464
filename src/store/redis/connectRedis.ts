import { createClient, createCluster } from 'redis';
import type { Logger } from '../../logger.js';

/** Where rxgate's Redis is: one server at `url`, or a Redis Cluster that `url` (comma-separated seed nodes) leads to. */
export interface RedisTarget {
  readonly url: string;
  /** Default false. */
  readonly cluster?: boolean;
}

/**
 * The connection options every connection shares: commands fail at once while it is disconnected
 * rather than queue without bound, it reconnects by itself backing off up to two seconds, and it is
 * named `name` in `CLIENT LIST`.
 */
function connectionOptions(name: string) {
  return {
    name,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000) },
  };
}

/** Logs the first failure of a run of them (node-redis reports one per failed reconnect), and the recovery. */
function reportConnection(logger: Logger) {
  let reported = false;
  return {
    failed: (error: Error) => {
      if (!reported) logger.warn({ err: error }, 'Redis connection failed; reconnecting');
      reported = true;
    },
    ready: () => {
      if (reported) logger.info('Redis connection restored');
      reported = false;
    },
  };
}

/** A client of the server at `url` that never takes the process down (see `connectionOptions`); so are its duplicates. */
export function createRedisClient(url: string, logger: Logger, name: string) {
  const client = createClient({ url, ...connectionOptions(name) });
  const report = reportConnection(logger);
  client.on('error', report.failed);
  client.on('ready', report.ready);
  return client;
}

/**
 * A client of the Redis Cluster that the comma-separated `urls` are nodes of; it discovers the
 * others, follows MOVED and ASK, and connects to every master. The first URL's user, password and
 * scheme (`rediss:` for TLS) apply to every node: node-redis takes the seeds' own only for discovery.
 */
export function createRedisCluster(urls: string, logger: Logger, name: string) {
  const seeds = urls.split(',').map((url) => url.trim());
  const first = new URL(seeds[0]!);
  const options = connectionOptions(name);
  const cluster = createCluster({
    rootNodes: seeds.map((url) => ({ url })),
    defaults: {
      ...options,
      username: first.username ? decodeURIComponent(first.username) : undefined,
      password: first.password ? decodeURIComponent(first.password) : undefined,
      socket: { ...options.socket, tls: first.protocol === 'rediss:' },
    },
  });
  const report = reportConnection(logger);
  cluster.on('error', report.failed);
  cluster.on('node-error', report.failed);
  cluster.on('node-ready', report.ready);
  return cluster;
}

export type SingleRedisClient = ReturnType<typeof createRedisClient>;
export type RedisCluster = ReturnType<typeof createRedisCluster>;
export type RedisClient = SingleRedisClient | RedisCluster;

/** A client of `target`: see `createRedisClient` and `createRedisCluster`. */
export function connectRedis(target: RedisTarget, logger: Logger, name: string): RedisClient {
  return target.cluster ? createRedisCluster(target.url, logger, name) : createRedisClient(target.url, logger, name);
}

export function isCluster(redis: RedisClient): redis is RedisCluster {
  return 'masters' in redis;
}
