import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';

/** The Redis the tests share (`.ci/run` makes sure one answers there); each test keeps to a prefix of its own. */
export const REDIS_URL = process.env.RXGATE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

/** A key prefix no other test uses. */
export function testPrefix(): string {
  return `rxgate-test:${randomUUID().slice(0, 8)}:`;
}

/** The keys under `prefix` now. */
export async function keysUnder(prefix: string): Promise<string[]> {
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  try {
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) keys.push(...batch);
    return keys;
  } finally {
    client.destroy();
  }
}

/** Removes every key under `prefix`. */
export async function removeKeysUnder(prefix: string): Promise<void> {
  const keys = await keysUnder(prefix);
  if (keys.length === 0) return;
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  try {
    for (let start = 0; start < keys.length; start += 500) await client.del(keys.slice(start, start + 500));
  } finally {
    client.destroy();
  }
}
