import { readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { measureAddedLatency } from './addedLatency.js';
import { measureCancellation } from './cancellation.js';
import { writeCharts } from './charts.js';
import { createClient } from './client.js';
import { concurrencyPlan, measureConcurrencyFigure } from './concurrencyFigure.js';
import { measureCpuPerRequest } from './cpuPerRequest.js';
import { cpuTargets } from './cpuTargets.js';
import { measureCrossInstance } from './crossInstance.js';
import { launchGateway, type Gateway } from './launchGateway.js';
import { measureLatencyUnderLoad } from './latencyUnderLoad.js';
import { launchUpstream } from './launchUpstream.js';
import { soakAborts } from './leakSoak.js';
import type { Report } from './Report.js';
import { renderReport } from './renderReport.js';
import { overloadPlan } from './overloadPlan.js';
import { measureOverload } from './overloadBurst.js';
import { measureIdempotencyCost } from './idempotencyCost.js';
import { measureMessagesCost } from './messagesCost.js';
import { measureSocketRollout } from './socketRollout.js';
import { measureRoutingCost } from './routingCost.js';
import { measureThroughput } from './throughput.js';
import { measureTracingCost } from './tracingCost.js';

/** `npm run bench -- --quick` (or `BENCH_QUICK=1`) runs every figure small, under a minute, to check the harness; the committed file is a full run. */
const quick = process.env.BENCH_QUICK === '1' || process.argv.includes('--quick');
const plan = {
  latency: quick ? { rounds: 20, warmup: 5 } : { rounds: 2_000, warmup: 1_000 },
  loadedLatency: { levels: [1, 16, 64, 256], ...(quick ? { requests: 32, warmup: 0 } : { requests: 2_048, warmup: 256 }) },
  throughput: quick ? { deltas: 5_000, rounds: 2 } : { deltas: 50_000, rounds: 15 },
  cancellation: quick ? { trials: 10, warmup: 3 } : { trials: 300, warmup: 20 },
  tracing: quick ? { rounds: 20, warmup: 5 } : { rounds: 1_000, warmup: 100 },
  routing: quick ? { rounds: 20, warmup: 5 } : { rounds: 500, warmup: 50 },
  idempotency: quick ? { rounds: 20, warmup: 5 } : { rounds: 500, warmup: 50 },
  messages: quick ? { rounds: 2, requests: 50 } : { rounds: 20, requests: 400 },
  socketRollout: quick ? { rounds: 2 } : { rounds: 30 },
  concurrency: concurrencyPlan(quick),
  soak: { streams: Number(process.env.BENCH_SOAK ?? (quick ? 100 : 20_000)), concurrency: 200, timeLimitMs: 240_000 },
  crossInstance: {
    redisUrl: process.env.RXGATE_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/0',
    stopTrials: quick ? 20 : 200,
    followers: 200,
    deltas: quick ? 200 : 2_000,
  },
  overload: overloadPlan(quick),
  cpu: { clients: 16, requests: quick ? 160 : 1_600, rounds: 3 },
};

const log = (message: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
const RESULTS = 'bench/results.json';

/** Runs every figure; the raw results are kept in bench/results.json so that the report's prose can be re-rendered (`BENCH_RENDER_ONLY=1`) without new figures. */
async function measureAll(): Promise<Report> {
  const started = performance.now();
  const upstream = await launchUpstream();
  const gateways = new Map<string, Gateway>();
  const kinds = ['rxgate', 'rxgate-no-metrics', 'pipe', 'frame-floor', 'bare', 'better-sse'] as const;
  for (const gateway of await Promise.all(kinds.map((kind) => launchGateway(kind, upstream.baseUrl)))) gateways.set(gateway.kind, gateway);
  const target = (kind: string) => ({ name: kind, origin: gateways.get(kind)!.origin });
  const client = createClient();

  log(`1/7 added latency ${JSON.stringify(plan.latency)}`);
  const latency = await measureAddedLatency(client, upstream, [target('rxgate'), target('pipe'), target('bare')], plan.latency);
  log(`1/7 added latency under concurrent clients ${JSON.stringify(plan.loadedLatency)}`);
  const loadedLatency = await measureLatencyUnderLoad(
    client,
    upstream,
    ['rxgate', 'pipe', 'bare', 'better-sse'].map(target),
    plan.loadedLatency,
  );

  log(`2/7 streaming throughput ${JSON.stringify(plan.throughput)}`);
  const throughput = await measureThroughput(
    client,
    ['rxgate', 'rxgate-no-metrics', 'pipe', 'frame-floor', 'bare', 'better-sse'].map((kind) => ({
      ...target(kind),
      pid: gateways.get(kind)!.child.pid!,
    })),
    upstream.pid,
    plan.throughput,
  );

  log(`3/7 cancellation ${JSON.stringify(plan.cancellation)}`);
  const cancellation = await measureCancellation(client, upstream, [target('rxgate'), target('pipe'), target('bare')], plan.cancellation);
  for (const gateway of gateways.values()) await gateway.stop();
  log(`3/7 tracing on against off ${JSON.stringify(plan.tracing)}`);
  const tracingCost = await measureTracingCost(client, upstream, plan.tracing);
  log(`3/7 routes file of two targets, and failover ${JSON.stringify(plan.routing)}`);
  const routingCost = await measureRoutingCost(client, upstream, plan.routing);
  log(`3/7 Idempotency-Key on chat completions ${JSON.stringify(plan.idempotency)}`);
  const idempotencyCost = await measureIdempotencyCost(client, upstream, plan.idempotency);
  log(`3/7 Anthropic Messages beside chat completions ${JSON.stringify(plan.messages)}`);
  const messagesCost = await measureMessagesCost(client, upstream, plan.messages);
  log(`3/7 a 20-turn tool-call rollout over SSE and over WebSocket ${JSON.stringify(plan.socketRollout)}`);
  const socketRollout = await measureSocketRollout(client, upstream, plan.socketRollout);
  await client.close();

  log(`3/7 CPU per request (figure 8) ${JSON.stringify(plan.cpu)}`);
  const cpuClient = createClient();
  const { targets: cpuTargetList, stop: stopCpuTargets } = await cpuTargets(upstream.baseUrl);
  const cpu = await measureCpuPerRequest(cpuClient, cpuTargetList, plan.cpu);
  await cpuClient.close();
  await stopCpuTargets();

  log(`4/7 concurrency ${JSON.stringify(plan.concurrency)}`);
  const concurrency = await measureConcurrencyFigure(upstream, plan.concurrency, log);

  log(`5/7 leak soak ${JSON.stringify(plan.soak)}`);
  const soakGateway = await launchGateway('rxgate', upstream.baseUrl);
  await soakAborts(createClient, soakGateway, upstream, { ...plan.soak, streams: quick ? 20 : 500 });
  const soak = await soakAborts(createClient, soakGateway, upstream, plan.soak);
  await soakGateway.stop();

  log(`6/7 overload (figure 7) ${JSON.stringify(plan.overload)}`);
  const overload = await measureOverload(upstream, plan.overload);
  await upstream.close();

  log(`7/7 several instances (figure 6) ${JSON.stringify(plan.crossInstance)}`);
  const crossInstance = await measureCrossInstance(plan.crossInstance);

  const machine = {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: totalmem() / 1024 ** 3,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    ...(process.env.BENCH_NOFILE ? { nofile: Number(process.env.BENCH_NOFILE) } : {}),
  };
  return {
    machine,
    plan,
    quick,
    latency,
    loadedLatency,
    throughput,
    cancellation,
    tracingCost,
    routingCost,
    idempotencyCost,
    messagesCost,
    socketRollout,
    concurrency,
    soak,
    crossInstance,
    overload,
    cpu,
    minutes: (performance.now() - started) / 60_000,
    date: new Date().toISOString().slice(0, 10),
  };
}

const report: Report = process.env.BENCH_RENDER_ONLY === '1' ? (JSON.parse(await readFile(RESULTS, 'utf8')) as Report) : await measureAll();
if (process.env.BENCH_RENDER_ONLY !== '1' && !quick) await writeFile(RESULTS, `${JSON.stringify(report, null, 1)}\n`);
const file = process.env.BENCH_OUT ?? 'BENCHMARKS.md';
await writeFile(file, renderReport(report));
await writeCharts(report, dirname(file));
log(`wrote ${file}`);
