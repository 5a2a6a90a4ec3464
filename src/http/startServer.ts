import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { Agent } from '../agent/agent.js';
import { InterruptReason } from '../agent/interruptReason.js';
import type { Config } from '../config.js';
import { ConfigError } from '../errors/ConfigError.js';
import { answerClientError } from './answerClientError.js';
import { createApp } from './createApp.js';
import type { Tracing } from '../tracing/Tracing.js';
import { apiKeyAsKeys } from './keys/apiKeyAsKeys.js';
import { watchKeysFile } from './keys/watchKeysFile.js';
import type { ActiveRuns } from '../serving/activeRuns.js';
import { Readiness, type ReadinessCheck } from '../health/readiness.js';
import { startHealthServer } from '../health/startHealthServer.js';
import { silentLogger, type Logger } from '../logger.js';
import type { Metrics } from '../metrics/createMetrics.js';
import type { Coordinator } from '../store/Coordinator.js';
import type { KeyLimits } from '../store/KeyLimits.js';
import type { Store } from '../store/Store.js';
import type { PipelineOperators } from './pipelineOperators.js';

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  /** The health listener's URL (`RXGATE_HEALTH_PORT`), when there is one. */
  readonly healthUrl: string | undefined;
  readonly activeRuns: ActiveRuns;
  /** What `GET /health/ready` reports; turns not ready as soon as shutdown starts. */
  readonly readiness: Readiness;
  /**
   * Stops accepting connections, lets running streams finish for `graceMs`, then interrupts the
   * rest with `Server shutting down` and resolves once every response has ended.
   */
  shutdown(graceMs?: number): Promise<void>;
  /** Reads `RXGATE_KEYS_FILE` again (the CLI calls it on SIGHUP); nothing without one. */
  reloadKeys(): void;
}

export interface StartServerOptions {
  readonly agent: Agent;
  readonly config: Config;
  readonly logger?: Logger;
  /** Default: a new registry; pass the one the agent records into. */
  readonly metrics?: Metrics;
  /** User operators for every response; see `createApp`. */
  readonly operators?: PipelineOperators;
  /** Checks `GET /health/ready` runs besides "not shutting down" (the upstream, the store). */
  readonly readinessChecks?: readonly ReadinessCheck[];
  /** The store of the Responses and Runs APIs; see `createApp`. The caller closes it after shutdown. */
  readonly store?: Store;
  /** Goes with `store` when several instances share it; see `createApp`. */
  readonly coordinator?: Coordinator;
  /** Where spans go; see `createApp`. The caller shuts it down (flushing its spans) after shutdown. */
  readonly tracing?: Tracing;
  /** Goes with `store` when several instances share it; see `createApp`. */
  readonly keyLimits?: KeyLimits;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost|\[::1\])$/i;

/** Without an API key, anything that is not loopback would hand the agent (and its bill) to the network. */
export function assertSafeExposure({ host, apiKey, keysFile }: Pick<Config, 'host' | 'apiKey'> & Partial<Pick<Config, 'keysFile'>>): void {
  if (!apiKey?.trim() && !keysFile && !LOOPBACK.test(host)) {
    throw new ConfigError(
      `refusing to listen on ${host} without an API key: anyone who can reach it could run the agent. ` +
        'Set RXGATE_API_KEY or RXGATE_KEYS_FILE, or bind to 127.0.0.1.',
    );
  }
}

export async function startServer({
  agent,
  config,
  logger = silentLogger,
  metrics,
  operators,
  readinessChecks = [],
  store,
  coordinator,
  tracing,
  keyLimits,
}: StartServerOptions): Promise<RunningServer> {
  assertSafeExposure(config);
  const readiness = new Readiness();
  for (const check of readinessChecks) readiness.add(check);
  const watched = config.keysFile
    ? watchKeysFile(config.keysFile, logger, config.apiKey ? apiKeyAsKeys(config.apiKey) : undefined)
    : undefined;
  const keys = watched && (() => watched.current());
  const { app, requestClasses, activeRuns, jobScheduler, overload, recovered, upgrade, sockets } = createApp({
    agent,
    config,
    logger,
    readiness,
    operators,
    metrics,
    store,
    coordinator,
    tracing,
    keys,
    keyLimits,
  });
  await recovered;
  // A client that trickles its headers or body is cut off; responses may stream for as long as they need.
  // Node checks these timeouts every `connectionsCheckingInterval` (30 s by default), so check often enough to honour them.
  const server = createServer(
    {
      ...requestClasses,
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, config.headersTimeoutMs),
    },
    app,
  );
  // What Node refuses itself (bad framing, oversized headers, timeouts) still gets the OpenAI envelope.
  server.on('clientError', answerClientError);
  server.on('upgrade', upgrade);
  server.listen(config.port, config.host);
  await once(server, 'listening');
  overload.start();
  const health =
    config.healthPort === undefined
      ? undefined
      : await startHealthServer({ host: config.host, port: config.healthPort, readiness, overload, logger }).catch((error: unknown) => {
          overload.stop();
          server.close();
          throw error;
        });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host;

  let shuttingDown: Promise<void> | undefined;
  const shutdown = (graceMs = config.shutdownGraceMs) =>
    (shuttingDown ??= (async () => {
      readiness.markShuttingDown();
      jobScheduler.stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      sockets.drain();
      logger.info({ activeRuns: activeRuns.size, graceMs }, 'shutting down');
      await Promise.race([activeRuns.settled(), delay(graceMs)]);
      await activeRuns.stopAll(InterruptReason.shuttingDown);
      // Upgraded sockets are no longer the server's to close, and it waits for them.
      sockets.close();
      server.closeIdleConnections();
      await Promise.race([closed, delay(1000).then(() => server.closeAllConnections())]);
      await agent.close?.();
      watched?.close();
      overload.stop();
      await health?.close();
      logger.info('shut down');
    })());

  const reloadKeys = () => watched?.reload();
  return { server, url: `http://${host}:${port}`, healthUrl: health?.url, activeRuns, readiness, shutdown, reloadKeys };
}
