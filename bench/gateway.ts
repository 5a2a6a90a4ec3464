import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';
import { createLlmAgent } from '../src/agent/llm/createLlmAgent.js';
import { loadRoutes } from '../src/upstream/loadRoutes.js';
import { loadConfig } from '../src/config.js';
import { answerClientError } from '../src/http/answerClientError.js';
import { createApp, type RxgateApp } from '../src/http/createApp.js';
import type { RequestClasses } from '../src/http/express/expressBorn.js';
import type { Overload } from '../src/health/overload.js';
import type { Readiness } from '../src/health/readiness.js';
import { startHealthServer } from '../src/health/startHealthServer.js';
import { silentLogger } from '../src/logger.js';
import { openConfiguredStore } from '../src/store/configured/openConfiguredStore.js';
import { startTracing } from '../src/tracing/startTracing.js';
import { upstreamTimeouts } from '../src/upstream/upstreamTimeouts.js';
import type { ActiveRuns } from '../src/serving/activeRuns.js';
import { bareRelay } from './bareRelay.js';
import { betterSseRelay } from './betterSseRelay.js';
import { frameFloorRelay } from './frameFloorRelay.js';
import { noopMetrics } from './noopMetrics.js';
import { pipeRelay } from './pipeRelay.js';

/** What the bench can run as the thing under test, each in its own process. */
export type GatewayKind = 'rxgate' | 'rxgate-no-metrics' | 'pipe' | 'frame-floor' | 'bare' | 'better-sse';

export interface GatewayStats {
  readonly rss: number;
  readonly heapUsed: number;
  /** Memory outside the V8 heap that V8 knows of (Buffers and ArrayBuffers among it), and the ArrayBuffers alone. */
  readonly external: number;
  readonly arrayBuffers: number;
  /** Event-loop delay since the last reset, in ms. */
  readonly loopDelayP99: number;
  readonly loopDelayMax: number;
  /** `process.getActiveResourcesInfo()` tallied by type. */
  readonly resources: Record<string, number>;
  readonly activeRuns: number | null;
  /** Responses not yet closed: the streams this process holds open right now. */
  readonly openResponses: number;
  /** File descriptors open in this process, and its soft limit on them (`ulimit -n`); null where `/proc` cannot tell. */
  readonly openFiles: number | null;
  readonly fileLimit: number | null;
  /** What the server refused on client connections since it started (`clientError`), by error code. */
  readonly clientErrors: Record<string, number>;
  /** CPU time this process has used since it started (user and system), in µs: `process.cpuUsage()`, as `/proc` counts it. */
  readonly cpuMicros: number;
}

export type GatewayMessage = { type: 'stats'; seq: number; gc?: boolean; resetDelay?: boolean; heapSnapshot?: string };

/** The floors and peers rxgate is measured beside: each a `node:http` listener relaying to the upstream. */
const RELAYS: Record<Exclude<GatewayKind, 'rxgate' | 'rxgate-no-metrics'>, (upstreamUrl: string) => RequestListener> = {
  pipe: pipeRelay,
  'frame-floor': frameFloorRelay,
  bare: bareRelay,
  'better-sse': betterSseRelay,
};

const [kind, upstreamUrl, settingsJson] = process.argv.slice(2) as [GatewayKind, string, string];
/** `RXGATE_*` settings for rxgate, as the environment would give them. */
const settings = JSON.parse(settingsJson) as Record<string, string>;
let activeRuns: ActiveRuns | undefined;
let flushTracing = async (): Promise<void> => undefined;
let overload: Overload | undefined;
let readiness: Readiness | undefined;
let listener: RequestListener;
let requestClasses: RequestClasses | undefined;
let upgrade: RxgateApp['upgrade'] | undefined;
if (kind === 'rxgate' || kind === 'rxgate-no-metrics') {
  // Never shedding unless a figure asks (figure 7): on a shared machine a slow turn must not turn a figure's requests away.
  const config = loadConfig({ RXGATE_TOOLS: '', RXGATE_MAX_EVENT_LOOP_DELAY_MS: '0', ...settings });
  // With a routes file (the routing figure), its routes, as the CLI loads them; else the one upstream.
  const routes = config.routesFile ? loadRoutes(config.routesFile, process.env, upstreamTimeouts(config)) : undefined;
  const agent = createLlmAgent(routes ? { routes, tools: [] } : { baseUrl: upstreamUrl, model: 'bench', tools: [] });
  // With a store setting, the store it chooses (as the CLI opens it); else the in-memory default of `createApp`.
  const { store, coordinator } =
    settings.RXGATE_REDIS_URL || settings.RXGATE_DATA_DIR ? await openConfiguredStore(config, silentLogger) : {};
  // With `OTEL_*` settings, traced as the CLI traces (the tracing-cost figure); else off, as by default.
  const tracing = await startTracing(config);
  flushTracing = () => tracing.shutdown();
  const rxgate = createApp({
    agent,
    config,
    store,
    coordinator,
    tracing,
    ...(kind === 'rxgate-no-metrics' ? { metrics: noopMetrics() } : {}),
  });
  await rxgate.recovered;
  activeRuns = rxgate.activeRuns;
  overload = rxgate.overload;
  readiness = rxgate.readiness;
  listener = rxgate.app;
  requestClasses = rxgate.requestClasses;
  upgrade = rxgate.upgrade;
} else {
  listener = RELAYS[kind](upstreamUrl);
}

// The same server settings as `startServer`.
const server: Server = createServer(
  { ...requestClasses, headersTimeout: 15_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 },
  listener,
);
const clientErrors: Record<string, number> = {};
server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
  const code = error.code ?? error.message;
  clientErrors[code] = (clientErrors[code] ?? 0) + 1;
  answerClientError(error, socket);
});
let openResponses = 0;
server.on('request', (_req, res) => {
  openResponses++;
  res.once('close', () => openResponses--);
});
if (upgrade) server.on('upgrade', upgrade);
server.listen(0, '127.0.0.1', 4096);
await once(server, 'listening');
// As `startServer` does once listening: sampling the loop, and the health listener when `RXGATE_HEALTH_PORT` is set.
overload?.start();
const health =
  overload && readiness && settings.RXGATE_HEALTH_PORT !== undefined
    ? await startHealthServer({ host: '127.0.0.1', port: Number(settings.RXGATE_HEALTH_PORT), readiness, overload, logger: silentLogger })
    : undefined;

const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

function tally(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

function openFiles(): number | null {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return null;
  }
}

function fileLimit(): number | null {
  try {
    const soft = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    return soft === undefined ? null : Number(soft);
  } catch {
    return null;
  }
}

async function collectGarbage(): Promise<void> {
  for (let i = 0; i < 4; i++) {
    globalThis.gc?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

process.on('message', (message: GatewayMessage) => {
  void (async () => {
    const loopDelayP99 = loopDelay.percentile(99) / 1e6;
    const loopDelayMax = loopDelay.max / 1e6;
    if (message.resetDelay) loopDelay.reset();
    if (message.gc) await collectGarbage();
    if (message.heapSnapshot) writeHeapSnapshot(message.heapSnapshot);
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
    const cpu = process.cpuUsage();
    const stats: GatewayStats = {
      rss,
      heapUsed,
      external,
      arrayBuffers,
      loopDelayP99,
      loopDelayMax,
      resources: tally(),
      activeRuns: activeRuns?.size ?? null,
      openResponses,
      openFiles: openFiles(),
      fileLimit: fileLimit(),
      clientErrors,
      cpuMicros: cpu.user + cpu.system,
    };
    process.send!({ type: 'stats', seq: message.seq, stats });
  })();
});
process.send!({ type: 'ready', port: (server.address() as AddressInfo).port, healthUrl: health?.url });
// Exit normally on SIGINT so that `--cpu-prof` writes its profile, once the spans still batched are exported.
process.once('SIGINT', () => void flushTracing().then(() => process.exit(0)));
