// `npm run bench:instances`: what several instances on one Redis cost against one instance on SQLite:
// stop latency (POST /stop to the upstream request's socket closed) and follower fan-out (events/s
// delivered to 200 followers of one run). Needs Redis on RXGATE_BENCH_REDIS_URL (default 127.0.0.1:6379/0);
// with RXGATE_BENCH_REDIS_CLUSTER_URL (a Redis Cluster's nodes, comma-separated), the same on the cluster.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLlmAgent } from '../src/agent/llm/createLlmAgent.js';
import { loadConfig } from '../src/config.js';
import { silentLogger } from '../src/logger.js';
import { createApp } from '../src/http/createApp.js';
import type { Coordinator } from '../src/store/Coordinator.js';
import type { RedisTarget } from '../src/store/redis/connectRedis.js';
import { keysMatching } from '../src/store/redis/keysMatching.js';
import { RedisCoordinator } from '../src/store/redis/RedisCoordinator.js';
import { RedisStore } from '../src/store/redis/RedisStore.js';
import { SqliteStore } from '../src/store/sqlite/SqliteStore.js';
import type { Store } from '../src/store/Store.js';
import { fixed, median, p99 } from './stats.js';

const REDIS_URL = process.env.RXGATE_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const CLUSTER_URL = process.env.RXGATE_BENCH_REDIS_CLUSTER_URL;
const quick = process.argv.includes('--quick');
const STOP_TRIALS = quick ? 20 : 200;
const FOLLOWERS = 200;
const DELTAS = quick ? 200 : 2_000;

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An upstream that is silent after its headers (`stall`) or streams `DELTAS` deltas once `release` is called; reports each request's socket close. */
async function startUpstream() {
  let mode: 'stall' | 'stream' = 'stall';
  let opened: (() => void) | undefined;
  let gate = Promise.resolve();
  const arrivals: ((request: { closed: Promise<number> }) => void)[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const closed = new Promise<number>((resolve) => res.once('close', () => resolve(performance.now())));
      arrivals.shift()?.({ closed });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      if (mode === 'stall') return;
      void gate.then(() => {
        const chunk = (delta: object, finish: string | null = null) =>
          `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        let body = chunk({ role: 'assistant', content: '' });
        for (let i = 0; i < DELTAS; i++) body += chunk({ content: `${i} ` });
        res.end(`${body}${chunk({}, 'stop')}data: [DONE]\n\n`);
      });
    });
  });
  const baseUrl = `${await listen(server)}/v1`;
  return {
    baseUrl,
    /** Resolves with the next request's socket-closed promise once it arrives. */
    nextRequest: () => new Promise<{ closed: Promise<number> }>((resolve) => arrivals.push(resolve)),
    stall: () => (mode = 'stall'),
    streamAfterGate: () => {
      mode = 'stream';
      gate = new Promise((resolve) => (opened = resolve));
    },
    open: () => opened?.(),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

interface Instance {
  readonly url: string;
  close(): Promise<void>;
}

async function startInstance(baseUrl: string, store: Store, coordinator?: Coordinator): Promise<Instance> {
  const config = { ...loadConfig({}), maxConcurrentRuns: 1_000, maxFollowersPerRun: FOLLOWERS };
  const agent = createLlmAgent({ baseUrl, model: 'm', tools: [] });
  const { app, recovered } = createApp({ agent, config, store, coordinator });
  await recovered;
  const server = createServer(app);
  const url = await listen(server);
  return {
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await coordinator?.close();
      await store.close();
    },
  };
}

const post = (url: string, body?: unknown) => fetch(url, { method: 'POST', body: body === undefined ? undefined : JSON.stringify(body) });

async function createRun(url: string): Promise<string> {
  return ((await (await post(`${url}/v1/runs`, { input: 'hi' })).json()) as { run_id: string }).run_id;
}

async function stopLatencies(upstream: Awaited<ReturnType<typeof startUpstream>>, owner: Instance, asked: Instance): Promise<number[]> {
  upstream.stall();
  const samples: number[] = [];
  for (let trial = 0; trial < STOP_TRIALS; trial++) {
    const arrived = upstream.nextRequest();
    const id = await createRun(owner.url);
    const { closed } = await arrived;
    const stoppedAt = performance.now();
    const answer = await post(`${asked.url}/v1/runs/${id}/stop`);
    await answer.arrayBuffer();
    samples.push((await closed) - stoppedAt);
  }
  return samples;
}

/** Events per second delivered to `FOLLOWERS` followers (spread over `instances`) of one run of `DELTAS` deltas. */
async function fanOut(
  upstream: Awaited<ReturnType<typeof startUpstream>>,
  owner: Instance,
  instances: readonly Instance[],
): Promise<number> {
  upstream.streamAfterGate();
  const id = await createRun(owner.url);
  const followers = await Promise.all(
    Array.from({ length: FOLLOWERS }, async (_, index) => {
      const response = await fetch(`${instances[index % instances.length]!.url}/v1/runs/${id}/events`);
      return response.body!;
    }),
  );
  const startedAt = performance.now();
  upstream.open();
  const counts = await Promise.all(
    followers.map(async (body) => {
      let text = '';
      const decoder = new TextDecoder();
      for await (const part of body as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(part, { stream: true });
      return text.split('\nid: ').length - 1;
    }),
  );
  const seconds = (performance.now() - startedAt) / 1000;
  return counts.reduce((sum, count) => sum + count, 0) / seconds;
}

/** Two instances on `target`: the table row of their stop latency and fan-out. */
async function redisRow(upstream: Awaited<ReturnType<typeof startUpstream>>, label: string, target: RedisTarget): Promise<string> {
  const prefix = `rxgate-bench:${randomUUID().slice(0, 8)}:`;
  const redis = await Promise.all(
    [0, 1].map(async () => {
      const store = await RedisStore.open({ ...target, prefix });
      const coordinator = await RedisCoordinator.start(store, {
        leaseMs: 10_000,
        maxConcurrent: 1_000,
        logger: silentLogger,
      });
      return startInstance(upstream.baseUrl, store, coordinator);
    }),
  );
  const [a, b] = redis as [Instance, Instance];
  log(`${label}: stop latency`);
  const redisStop = await stopLatencies(upstream, a, b);
  log(`${label}: fan-out`);
  const redisFanOut = await fanOut(upstream, a, [a, b]);
  for (const instance of redis) await instance.close();
  const cleaner = await RedisStore.open({ ...target, prefix });
  // One DEL per key: on a cluster, keys of different slots cannot share one.
  for await (const keys of keysMatching(cleaner.redis, `${prefix}*`)) await Promise.all(keys.map((key) => cleaner.redis.del(key)));
  await cleaner.close();
  return `| ${label} | ${fixed(median(redisStop))} | ${fixed(p99(redisStop))} | ${Math.round(redisFanOut)} |`;
}

const log = (message: string) => process.stderr.write(`[bench:instances] ${message}\n`);

async function main(): Promise<void> {
  const upstream = await startUpstream();
  const rows: string[] = [];

  const sqlite = await startInstance(upstream.baseUrl, new SqliteStore({ dataDir: ':memory:' }));
  log('SQLite: stop latency');
  const sqliteStop = await stopLatencies(upstream, sqlite, sqlite);
  log('SQLite: fan-out');
  const sqliteFanOut = await fanOut(upstream, sqlite, [sqlite]);
  await sqlite.close();
  rows.push(
    `| SQLite, one instance (stop on the owner) | ${fixed(median(sqliteStop))} | ${fixed(p99(sqliteStop))} | ${Math.round(sqliteFanOut)} |`,
  );

  rows.push(await redisRow(upstream, 'Redis, two instances (stop on B, run on A)', { url: REDIS_URL }));
  if (CLUSTER_URL)
    rows.push(await redisRow(upstream, 'Redis Cluster, two instances (stop on B, run on A)', { url: CLUSTER_URL, cluster: true }));
  await upstream.close();

  process.stdout.write(
    [
      `stop: ${STOP_TRIALS} runs against a silent upstream; fan-out: ${FOLLOWERS} followers of one run of ${DELTAS} deltas`,
      '',
      '| Setup | stop → upstream aborted p50 (ms) | p99 (ms) | fan-out (events/s delivered) |',
      '| --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});
