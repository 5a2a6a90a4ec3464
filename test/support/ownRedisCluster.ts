import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { createClient } from 'redis';
import { freePort, untilAnswers } from './ownRedis.js';

/** Resolves once every node of the cluster on `ports` says `cluster_state:ok`. */
async function untilClusterOk(ports: readonly number[]): Promise<void> {
  for (const port of ports) {
    const client = createClient({ url: `redis://127.0.0.1:${port}` });
    await client.connect();
    try {
      for (let attempt = 0; !(await client.clusterInfo()).includes('cluster_state:ok'); attempt++) {
        if (attempt >= 200) throw new Error(`the Redis Cluster node on port ${port} never said cluster_state:ok`);
        await delay(50);
      }
    } finally {
      client.destroy();
    }
  }
}

/**
 * A Redis Cluster of the test's own: `masters` `redis-server`s (no replicas) on 127.0.0.1 and free
 * ports, without persistence, their cluster files in a temporary directory. `url` is their
 * comma-separated URLs (what `RXGATE_REDIS_URL` takes with `RXGATE_REDIS_CLUSTER`); `stop` kills
 * them and removes the directory.
 */
export async function startOwnRedisCluster(masters = 3) {
  const dir = await mkdtemp(join(tmpdir(), 'rxgate-redis-cluster-'));
  const ports: number[] = [];
  // A port just freed may be handed out again: each node needs one of its own.
  while (ports.length < masters) {
    const port = await freePort();
    if (!ports.includes(port)) ports.push(port);
  }
  const nodes: ChildProcess[] = ports.map((port) =>
    spawn(
      'redis-server',
      [
        ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
        ...['--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${port}.conf`)],
        ...['--save', '', '--appendonly', 'no'],
      ],
      { stdio: 'ignore' },
    ),
  );
  const stop = async () => {
    await Promise.all(
      nodes
        .filter((node) => node.exitCode === null)
        .map(async (node) => {
          const exited = once(node, 'exit');
          node.kill('SIGKILL');
          await exited;
        }),
    );
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await Promise.all(ports.map(untilAnswers));
    const addresses = ports.map((port) => `127.0.0.1:${port}`);
    await promisify(execFile)('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
    await untilClusterOk(ports);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: ports.map((port) => `redis://127.0.0.1:${port}`).join(','), ports, stop };
}
