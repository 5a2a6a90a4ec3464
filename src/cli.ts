#!/usr/bin/env node
import { loadConfig, type Config } from './config.js';
import { createAgentFor } from './createAgentFor.js';
import { ConfigError } from './errors/ConfigError.js';
import { RxgateError } from './errors/RxgateError.js';
import { upstreamReadiness } from './health/upstreamReadiness.js';
import { loadOperatorsModule } from './loadOperatorsModule.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics/createMetrics.js';
import { startServer } from './server.js';
import { Store } from './store/Store.js';

function openStore(config: Config): Store {
  try {
    return new Store({
      dataDir: config.dataDir,
      retention: { maxItems: config.retentionMaxItems, maxAgeMs: config.retentionMaxAgeDays * 24 * 3600 * 1000 },
    });
  } catch (error) {
    throw new ConfigError(`RXGATE_DATA_DIR=${JSON.stringify(config.dataDir)}: cannot open the store there: ${(error as Error).message}`);
  }
}

async function main(): Promise<void> {
  const config = loadConfig(process.env, process.argv.slice(2));
  const logger = createLogger(config.logLevel);
  const metrics = createMetrics();
  const agent = createAgentFor(config, logger, metrics);
  const operators = await loadOperatorsModule(config.operatorsModule);
  const readinessChecks = config.upstreamUrl ? [upstreamReadiness({ baseUrl: config.upstreamUrl, apiKey: config.upstreamApiKey })] : [];
  const store = openStore(config);
  if (store.recovered > 0)
    logger.warn({ recovered: store.recovered }, 'marked responses and runs left in flight by the previous process as failed');
  const running = await startServer({ agent, config, logger, metrics, operators, readinessChecks, store });
  logger.info({ agent: agent.description }, 'agent ready');
  process.stdout.write(`agent: ${agent.description}\n`);
  if (!config.upstreamUrl) {
    process.stdout.write(
      'no upstream configured: this is the built-in offline agent. Connect a model with RXGATE_UPSTREAM_URL=http://127.0.0.1:11434/v1 RXGATE_UPSTREAM_MODEL=<model>\n',
    );
  }
  process.stdout.write(`rxgate listening on ${running.url}\n`);

  const stop = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'signal received');
    running.shutdown().then(
      () => {
        store.close();
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof RxgateError ? error.message : String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
