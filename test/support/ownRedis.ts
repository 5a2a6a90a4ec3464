import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { createClient } from 'redis';

/** A port that was just free on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Whether a Redis answers PING at `url` now (one try, no reconnecting). */
export async function redisAnswers(url: string): Promise<boolean> {
  const client = createClient({ url, socket: { connectTimeout: 1_000, reconnectStrategy: false } });
  client.on('error', () => undefined);
  const answered = await client.connect().then(
    async () => (await client.ping()) === 'PONG',
    () => false,
  );
  if (client.isOpen) client.destroy();
  return answered;
}

/** Resolves once the `redis-server` on `port` answers PING; throws if it never does. */
export async function untilAnswers(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await redisAnswers(`redis://127.0.0.1:${port}`)) return;
    await delay(50);
  }
  throw new Error(`redis-server on port ${port} did not start`);
}

/**
 * A `redis-server` of the test's own, on 127.0.0.1 and a free port, without persistence, that the
 * test can stop and start again on the same port (Redis going away under a running gateway).
 */
export async function startOwnRedis() {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const up = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await untilAnswers(port);
  };
  const down = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  };
  await up();
  return { url: `redis://127.0.0.1:${port}/0`, start: up, stop: down };
}
