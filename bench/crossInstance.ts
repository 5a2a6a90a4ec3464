import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisAnswers } from '../test/support/ownRedis.js';
import { startOwnRedisCluster } from '../test/support/ownRedisCluster.js';
import { removeKeysUnder } from '../test/support/redisTest.js';
import { launchGateway, type Gateway } from './launchGateway.js';
import { median, p99 } from './stats.js';

export interface CrossInstancePlan {
  readonly redisUrl: string;
  readonly stopTrials: number;
  readonly followers: number;
  readonly deltas: number;
}

export interface CrossInstanceRow {
  readonly setup: 'sqlite' | 'redis' | 'redis-cluster';
  readonly stopMedian: number;
  readonly stopP99: number;
  /** Events delivered per second, summed over every follower. */
  readonly fanOut: number;
  /** Followers that saw the run's whole sequence, each event once. */
  readonly completeFollowers: number;
}

export type CrossInstanceResult = { readonly rows: readonly CrossInstanceRow[] } | { readonly skipped: string };

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An upstream that is silent after its headers (`stall`) or streams `deltas` deltas once `open` is called; reports each request's socket close. */
async function startUpstream(deltas: number) {
  let mode: 'stall' | 'stream' = 'stall';
  let opened: (() => void) | undefined;
  let gate = Promise.resolve();
  const arrivals: ((request: { closed: Promise<number> }) => void)[] = [];
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  let answer = chunk({ role: 'assistant', content: '' });
  for (let i = 0; i < deltas; i++) answer += chunk({ content: `${i} ` });
  answer += `${chunk({}, 'stop')}data: [DONE]\n\n`;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const closed = new Promise<number>((resolve) => res.once('close', () => resolve(performance.now())));
      arrivals.shift()?.({ closed });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      if (mode === 'stream') void gate.then(() => res.end(answer));
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

type Upstream = Awaited<ReturnType<typeof startUpstream>>;

const post = (url: string, body?: unknown) => fetch(url, { method: 'POST', body: body === undefined ? undefined : JSON.stringify(body) });

async function createRun(origin: string): Promise<string> {
  return ((await (await post(`${origin}/v1/runs`, { input: 'hi' })).json()) as { run_id: string }).run_id;
}

/** From `POST /stop` on `asked` to the upstream request of the run on `owner` seeing its socket close, in ms. */
async function stopLatencies(upstream: Upstream, owner: Gateway, asked: Gateway, trials: number): Promise<number[]> {
  upstream.stall();
  const samples: number[] = [];
  for (let trial = 0; trial < trials; trial++) {
    const arrived = upstream.nextRequest();
    const id = await createRun(owner.origin);
    const { closed } = await arrived;
    const stoppedAt = performance.now();
    const answer = await post(`${asked.origin}/v1/runs/${id}/stop`);
    await answer.arrayBuffer();
    samples.push((await closed) - stoppedAt);
  }
  return samples;
}

/** The event ids a follower received, in order. */
async function eventIds(body: ReadableStream<Uint8Array>): Promise<number[]> {
  let text = '';
  const decoder = new TextDecoder();
  for await (const part of body as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(part, { stream: true });
  return [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
}

/** `followers` followers (spread over `instances`) of one run of the owner's: events per second delivered, and how many saw every event once. */
async function fanOut(upstream: Upstream, owner: Gateway, instances: readonly Gateway[], followers: number) {
  upstream.streamAfterGate();
  const id = await createRun(owner.origin);
  let attached = 0;
  let allAttached!: () => void;
  const everyoneAttached = new Promise<void>((resolve) => (allAttached = resolve));
  const sequences = Promise.all(
    Array.from({ length: followers }, async (_, index) => {
      const response = await fetch(`${instances[index % instances.length]!.origin}/v1/runs/${id}/events`);
      // Read at once: undici cancels the body of a Response that is garbage-collected before its body was touched.
      const ids = eventIds(response.body!);
      if (++attached === followers) allAttached();
      return ids;
    }),
  );
  await everyoneAttached;
  const startedAt = performance.now();
  upstream.open();
  const received = await sequences;
  const seconds = (performance.now() - startedAt) / 1000;
  const length = Math.max(...received.map((ids) => ids.length));
  return {
    fanOut: received.reduce((sum, ids) => sum + ids.length, 0) / seconds,
    completeFollowers: received.filter((ids) => ids.length === length && ids.every((seq, index) => seq === index)).length,
  };
}

async function measureSetup(
  setup: CrossInstanceRow['setup'],
  upstream: Upstream,
  settings: Record<string, string>,
  plan: CrossInstancePlan,
): Promise<CrossInstanceRow> {
  const instances = await Promise.all((setup === 'sqlite' ? [0] : [0, 1]).map(() => launchGateway('rxgate', upstream.baseUrl, settings)));
  const owner = instances[0]!;
  const asked = instances.at(-1)!;
  await stopLatencies(upstream, owner, asked, Math.ceil(plan.stopTrials / 10));
  const stops = await stopLatencies(upstream, owner, asked, plan.stopTrials);
  const delivered = await fanOut(upstream, owner, instances, plan.followers);
  for (const instance of instances) await instance.stop();
  return { setup, stopMedian: median(stops), stopP99: p99(stops), ...delivered };
}

/** The same two instances on a Redis Cluster of three masters that the bench starts (and stops) itself. */
async function measureOnCluster(upstream: Upstream, common: Record<string, string>, plan: CrossInstancePlan): Promise<CrossInstanceRow> {
  const cluster = await startOwnRedisCluster(3);
  try {
    return await measureSetup('redis-cluster', upstream, { ...common, RXGATE_REDIS_URL: cluster.url, RXGATE_REDIS_CLUSTER: 'true' }, plan);
  } finally {
    await cluster.stop();
  }
}

/**
 * What several instances on Redis cost against one instance on a SQLite file: stop latency
 * (`POST /v1/runs/{id}/stop` on an instance to the upstream request of the run on the owner seeing
 * its socket close) and fan-out (events per second delivered to the followers of one run, spread
 * over the instances). Each instance is a gateway process of its own, like every other target.
 */
export async function measureCrossInstance(plan: CrossInstancePlan): Promise<CrossInstanceResult> {
  if (!(await redisAnswers(plan.redisUrl))) return { skipped: `no Redis answered at ${plan.redisUrl}` };
  const upstream = await startUpstream(plan.deltas);
  const common = { RXGATE_MAX_CONCURRENT_RUNS: '1000', RXGATE_MAX_FOLLOWERS_PER_RUN: String(plan.followers) };
  const dataDir = await mkdtemp(join(tmpdir(), 'rxgate-bench-'));
  const prefix = `rxgate-bench:${randomUUID().slice(0, 8)}:`;
  try {
    const sqlite = await measureSetup('sqlite', upstream, { ...common, RXGATE_DATA_DIR: dataDir }, plan);
    const redis = await measureSetup('redis', upstream, { ...common, RXGATE_REDIS_URL: plan.redisUrl, RXGATE_REDIS_PREFIX: prefix }, plan);
    const cluster = await measureOnCluster(upstream, common, plan);
    return { rows: [sqlite, redis, cluster] };
  } finally {
    await upstream.close();
    await rm(dataDir, { recursive: true, force: true });
    await removeKeysUnder(prefix, { url: plan.redisUrl });
  }
}
