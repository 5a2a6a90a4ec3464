import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { ConfigError } from '../errors/ConfigError.js';
import type { Logger } from '../logger.js';
import { Heartbeat, type LoadState } from './heartbeat.js';
import type { HealthThreadData, HealthThreadMessage, ReadinessAnswer } from './healthThreadProtocol.js';
import type { Readiness } from './readiness.js';

export interface HealthServerOptions {
  readonly host: string;
  /** `RXGATE_HEALTH_PORT`; 0 picks a free one. */
  readonly port: number;
  readonly readiness: Readiness;
  /** What readiness reports as overload; its `maxDelayMs` is the limit the health thread applies too. */
  readonly overload: LoadState & { readonly maxDelayMs: number };
  /** Main-loop silence past which `/health` says stalled, in ms. Default: 10 s. */
  readonly stallMs?: number;
  /** Where a failure of the thread once listening is reported (probes then fail; the gateway goes on). */
  readonly logger: Logger;
}

export interface HealthServer {
  readonly url: string;
  /** Stops the thread and its listener. */
  close(): Promise<void>;
}

const BEAT_PERIOD_MS = 10;
const ASK_TIMEOUT_MS = 5_000;

/** The health thread's module: compiled beside this one, or, run from the TypeScript sources, loaded through tsx. */
function startThread(workerData: HealthThreadData): Worker {
  const compiled = new URL('./healthThread.js', import.meta.url);
  if (existsSync(compiled)) return new Worker(compiled, { workerData });
  const source = JSON.stringify(new URL('./healthThread.ts', import.meta.url).href);
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${source}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

/**
 * `GET /health` and `GET /health/ready` on a port of their own (`RXGATE_HEALTH_PORT`), answered by
 * a thread of their own: within milliseconds while the main loop is busy, which is when an
 * orchestrator's probe must not time out. Liveness fails only once the main loop has made no
 * progress for `stallMs`; readiness reports overload from the main loop's heartbeat without
 * waiting for it, and asks it the rest (`Readiness`) when it keeps up.
 */
export async function startHealthServer({
  host,
  port,
  readiness,
  overload,
  stallMs = 10_000,
  logger,
}: HealthServerOptions): Promise<HealthServer> {
  const heartbeat = new Heartbeat(overload, BEAT_PERIOD_MS).start();
  const thread = startThread({
    host,
    port,
    memory: heartbeat.memory,
    periodMs: heartbeat.periodMs,
    maxDelayMs: overload.maxDelayMs,
    stallMs,
    askTimeoutMs: ASK_TIMEOUT_MS,
  });
  const answer = async (id: number) => {
    const reasons = await readiness.reasons();
    thread.postMessage({ id, reasons, details: readiness.details() } satisfies ReadinessAnswer);
  };
  thread.on('message', (message: HealthThreadMessage) => {
    if (message.type === 'ask') void answer(message.id);
  });
  const close = async () => {
    heartbeat.stop();
    await thread.terminate();
  };

  const [first] = (await once(thread, 'message').catch(async (error: unknown) => {
    await close();
    throw error;
  })) as [HealthThreadMessage];
  if (first.type !== 'listening') {
    await close();
    const why = first.type === 'failed' ? first.message : `unexpected ${first.type}`;
    throw new ConfigError(`RXGATE_HEALTH_PORT=${port}: the health listener cannot listen on ${host}:${port}: ${why}`);
  }
  thread.on('error', (error) => logger.error({ err: error }, 'the health listener failed: RXGATE_HEALTH_PORT answers no more probes'));
  const shownHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return { url: `http://${shownHost}:${first.port}`, close };
}
