#!/usr/bin/env node
import { BUILTIN_TOOLS } from './agent/tools/createToolRegistry.js';
import { createMcpManager, type McpManager } from './agent/tools/mcp/createMcpManager.js';
import { loadMcpConfig } from './agent/tools/mcp/loadMcpConfig.js';
import type { McpServerConfig } from './agent/tools/mcp/mcpServerConfig.js';
import { loadConfig, type Config } from './config.js';
import { createAgentFor } from './createAgentFor.js';
import { ConfigError } from './errors/ConfigError.js';
import { RxgateError } from './errors/RxgateError.js';
import { upstreamReadiness } from './upstream/upstreamReadiness.js';
import { loadOperatorsModule } from './loadOperatorsModule.js';
import { createLogger, type Logger } from './logger.js';
import { createMetrics } from './metrics/createMetrics.js';
import { keysCommand } from './http/keys/keysCommand.js';
import { startServer } from './http/startServer.js';
import { openConfiguredStore, type ConfiguredStore } from './store/configured/openConfiguredStore.js';
import { startTracing } from './tracing/startTracing.js';
import { watchPricesFile } from './money/watchPricesFile.js';

async function openStore(config: Config, logger: Logger): Promise<ConfiguredStore> {
  try {
    return await openConfiguredStore(config, logger);
  } catch (error) {
    const where = config.redisUrl ? 'RXGATE_REDIS_URL' : `RXGATE_DATA_DIR=${JSON.stringify(config.dataDir)}`;
    throw new ConfigError(`${where}: cannot open the store there: ${(error as Error).message}`);
  }
}

/** The MCP servers of RXGATE_MCP_CONFIG, connecting; only the LLM agent calls tools a model chose. */
function startMcp(config: Config, servers: readonly McpServerConfig[], logger: Logger): McpManager | undefined {
  if (servers.length === 0) return undefined;
  if (!config.upstreamUrl) {
    logger.warn(
      { servers: servers.length },
      'RXGATE_MCP_CONFIG is set, but the offline agent calls no MCP tools; set RXGATE_UPSTREAM_URL to use them',
    );
    return undefined;
  }
  return createMcpManager(servers, {
    logger,
    reservedNames: BUILTIN_TOOLS.map((tool) => tool.name),
    maxMessageBytes: config.mcpMaxMessageBytes,
  });
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'keys') {
    process.stdout.write(keysCommand(argv.slice(1), process.env));
    return;
  }
  const config = loadConfig(process.env, argv);
  const logger = createLogger(config.logLevel);
  const mcpServers = config.mcpConfig ? loadMcpConfig(config.mcpConfig) : [];
  const metrics = createMetrics();
  const mcp = startMcp(config, mcpServers, logger);
  const prices = config.pricesFile ? watchPricesFile(config.pricesFile, logger) : undefined;
  const { store, coordinator, keyLimits, close: closeStore } = await openStore(config, logger);
  const agent = createAgentFor(config, logger, {
    metrics,
    extraTools: mcp,
    prices: prices && (() => prices.current()),
    ledger: store.usage,
    budgets: store.budgets,
  });
  const operators = await loadOperatorsModule(config.operatorsModule);
  const readinessChecks = config.upstreamUrl ? [upstreamReadiness({ baseUrl: config.upstreamUrl, apiKey: config.upstreamApiKey })] : [];
  if (mcp) readinessChecks.push(mcp.readiness);
  const tracing = await startTracing(config);
  const running = await startServer({
    agent,
    config,
    logger,
    metrics,
    operators,
    readinessChecks,
    store,
    coordinator,
    tracing,
    keyLimits,
  }).catch(async (error: unknown) => {
    await mcp?.close();
    await closeStore();
    await tracing.shutdown();
    throw error;
  });
  logger.info({ agent: agent.description }, 'agent ready');
  process.stdout.write(`agent: ${agent.description}\n`);
  if (!config.upstreamUrl) {
    process.stdout.write(
      'no upstream configured: this is the built-in offline agent. Connect a model with RXGATE_UPSTREAM_URL=http://127.0.0.1:11434/v1 RXGATE_UPSTREAM_MODEL=<model>\n',
    );
  }
  process.stdout.write(`rxgate listening on ${running.url}\n`);
  if (running.healthUrl) process.stdout.write(`health probes on ${running.healthUrl}/health and ${running.healthUrl}/health/ready\n`);

  const stop = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'signal received');
    // MCP sessions close after the runs were interrupted (which cancelled their calls on the servers);
    // spans are flushed last, once the interrupted runs have ended theirs.
    running
      .shutdown()
      .then(() => mcp?.close())
      .then(() => closeStore())
      .then(() => tracing.shutdown())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGHUP', () => {
    running.reloadKeys();
    prices?.reload();
  });
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof RxgateError ? error.message : String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
