import { mkdtempSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createLlmAgent } from '../../src/agent/llm/createLlmAgent.js';
import { loadRoutes } from '../../src/upstream/loadRoutes.js';
import { observeAttempts } from '../../src/upstream/observeAttempts.js';
import { spendSink } from '../../src/upstream/spendSink.js';
import { budgetGuardFor } from '../../src/upstream/budgetGuardFor.js';
import { SqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import type { Store } from '../../src/store/Store.js';
import { silentLogger } from '../../src/logger.js';
import { DEFAULTS } from '../../src/config.js';
import type { CreateAppOptions } from '../../src/http/createApp.js';
import { createMetrics, type Metrics } from '../../src/metrics/createMetrics.js';
import type { PriceBook } from '../../src/money/PriceBook.js';
import { createScriptedUpstream, unusedBaseUrl, type ScriptedUpstream, type UpstreamScript } from './scriptedUpstream.js';
import { startApp, type TestApp } from './startApp.js';
import { createUnacceptingUpstream } from './unacceptingUpstream.js';

/** An upstream that reads each request and never answers it, not even with headers; it counts them and when each closed. */
export interface SilentUpstream {
  readonly baseUrl: string;
  readonly requests: readonly { readonly closed: Promise<void> }[];
  close(): Promise<void>;
}

export async function createSilentUpstream(): Promise<SilentUpstream> {
  const requests: { closed: Promise<void> }[] = [];
  const server = createServer((req: IncomingMessage) => {
    requests.push({ closed: new Promise((resolve) => req.socket.once('close', () => resolve())) });
    req.resume();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * What an upstream of the test's routes file is: scripted answers, a server that never answers, a port nobody listens on,
 * a listener that accepts nothing, or scripted answers of an upstream of `"kind": "anthropic"` (their steps Messages events, `anthropicWire`).
 */
export type UpstreamPlay =
  | readonly UpstreamScript[]
  | 'silent'
  | 'refused'
  | 'unaccepting'
  | { readonly kind: 'anthropic'; readonly scripts: readonly UpstreamScript[] };

export interface RoutedGateway {
  readonly gateway: TestApp;
  readonly metrics: Metrics;
  /** The app's store, its usage ledger written by the agent. */
  readonly store: Store;
  /** The scripted (and silent) upstreams by id. */
  readonly upstreams: Readonly<Record<string, ScriptedUpstream | SilentUpstream>>;
  scripted(id: string): ScriptedUpstream;
  silent(id: string): SilentUpstream;
}

/** The route most tests use: `smart`, to main, then backup, in order. */
export const SMART = {
  models: [
    {
      name: 'smart',
      targets: [
        { upstream: 'main', model: 'main-model' },
        { upstream: 'backup', model: 'backup-model' },
      ],
    },
  ],
};

/** The API key every routed upstream is given, from the variable the routes file names. */
export const ROUTED_KEY_ENV = 'RXGATE_TEST_ROUTED_KEY';
export const ROUTED_KEY = 'sk-routed-secret-5678';

/**
 * The real app around the LLM agent over a real routes file (written to a temporary directory
 * and read with `loadRoutes`, its key as `env:`), whose upstreams play `plays`; `file` is the
 * rest of the file (models, retry, budget, breaker), `timeouts` every upstream's, and `app` adds to the
 * app's options (its `tracing`, its `store`: by default one in memory, whose usage ledger the
 * agent's spent calls are written to, and against whose budgets a key's calls are held) and
 * `prices` the agent's. Closed after each test.
 */
export function useRoutedGateway() {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });
  return async function start(
    plays: Readonly<Record<string, UpstreamPlay>>,
    file: Readonly<Record<string, unknown>>,
    timeouts: Readonly<Record<string, number>> = {},
    { prices, ...app }: Partial<CreateAppOptions> & { readonly prices?: () => PriceBook } = {},
  ): Promise<RoutedGateway> {
    const upstreams: Record<string, ScriptedUpstream | SilentUpstream> = {};
    const entries = [];
    for (const [id, play] of Object.entries(plays)) {
      let url: string;
      const anthropic = typeof play === 'object' && 'kind' in play ? play : undefined;
      if (play === 'refused') url = await unusedBaseUrl();
      else if (play === 'unaccepting') {
        const upstream = await createUnacceptingUpstream();
        open.push(upstream);
        url = upstream.baseUrl;
      } else {
        const upstream =
          play === 'silent' ? await createSilentUpstream() : await createScriptedUpstream('kind' in play ? play.scripts : play);
        open.push(upstream);
        upstreams[id] = upstream;
        url = upstream.baseUrl;
      }
      entries.push({ id, ...(anthropic ? { kind: anthropic.kind } : {}), url, apiKey: `env:${ROUTED_KEY_ENV}`, timeouts });
    }
    const path = join(mkdtempSync(join(tmpdir(), 'rxgate-routes-')), 'routes.json');
    writeFileSync(path, JSON.stringify({ upstreams: entries, ...file }));
    const routes = loadRoutes(
      path,
      { [ROUTED_KEY_ENV]: ROUTED_KEY },
      {
        connectMs: DEFAULTS.upstreamConnectTimeoutMs,
        firstByteMs: DEFAULTS.upstreamFirstByteTimeoutMs,
        firstContentMs: DEFAULTS.upstreamFirstTokenTimeoutMs,
        idleMs: DEFAULTS.upstreamIdleTimeoutMs,
      },
    );
    const metrics = createMetrics();
    const store = app.store ?? new SqliteStore({ dataDir: ':memory:' });
    const onSpent = spendSink(silentLogger, metrics, store.usage);
    const budgets = budgetGuardFor(
      store.budgets,
      { reserveOutputTokens: DEFAULTS.budgetReserveOutputTokens, leaseMs: DEFAULTS.budgetLeaseMs },
      silentLogger,
      metrics,
    );
    const agent = createLlmAgent({ routes, tools: [], attemptObserver: observeAttempts(metrics), prices, onSpent, budgets });
    const gateway = await startApp(agent, {}, { ...app, metrics, store });
    open.unshift(gateway);
    return {
      gateway,
      metrics,
      store,
      upstreams,
      scripted: (id) => upstreams[id] as ScriptedUpstream,
      silent: (id) => upstreams[id] as SilentUpstream,
    };
  };
}
