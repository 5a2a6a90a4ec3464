import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Agent } from '../../src/agent/agent.js';
import { loadConfig } from '../../src/config.js';
import { createApp, type AppConfig, type CreateAppOptions } from '../../src/http/createApp.js';
import type { ActiveRuns } from '../../src/serving/activeRuns.js';
import type { Store } from '../../src/store/Store.js';

export interface TestApp {
  readonly url: string;
  readonly server: Server;
  readonly activeRuns: ActiveRuns;
  readonly store: Store;
  close(): Promise<void>;
}

/** The real app on 127.0.0.1 and a free port, with the built-in defaults unless overridden. */
export async function startApp(
  agent: Agent,
  overrides: Partial<AppConfig> = {},
  options: Partial<CreateAppOptions> = {},
): Promise<TestApp> {
  // Never shed: a test on a busy machine must not get 503 `overloaded` for a slow turn of its loop (test/http/serving/overload.test.ts asks for it).
  const config = { ...loadConfig({}), maxEventLoopDelayMs: 0, ...overrides };
  const { app, requestClasses, activeRuns, overload, store, jobScheduler, recovered, upgrade, sockets } = createApp({
    ...options,
    agent,
    config,
  });
  await recovered;
  const server = createServer({ ...requestClasses }, app);
  server.on('upgrade', upgrade);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  overload.start();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    activeRuns,
    store,
    close: async () => {
      jobScheduler.stop();
      overload.stop();
      sockets.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
