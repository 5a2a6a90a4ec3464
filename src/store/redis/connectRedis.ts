import { createClient } from 'redis';
import type { Logger } from '../../logger.js';

/**
 * A client of `url` that never takes the process down: errors are logged (node-redis emits one per
 * failed reconnect), commands fail at once while it is disconnected rather than queue without
 * bound, and it reconnects by itself, backing off up to two seconds. Its connections (and their
 * duplicates) are named `name` in `CLIENT LIST`.
 */
export function createRedisClient(url: string, logger: Logger, name: string) {
  const client = createClient({
    url,
    name,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2_000) },
  });
  let reported = false;
  client.on('error', (error: Error) => {
    if (!reported) logger.warn({ err: error }, 'Redis connection failed; reconnecting');
    reported = true;
  });
  client.on('ready', () => {
    if (reported) logger.info('Redis connection restored');
    reported = false;
  });
  return client;
}

export type RedisClient = ReturnType<typeof createRedisClient>;
