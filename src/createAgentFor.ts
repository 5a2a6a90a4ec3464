import type { Agent } from './agent/agent.js';
import { createLlmAgent } from './agent/llm/createLlmAgent.js';
import { createOfflineAgent } from './agent/offline/createOfflineAgent.js';
import { approvalPolicy } from './agent/tools/approvalPolicy.js';
import { selectTools } from './agent/tools/createToolRegistry.js';
import type { Tool, ToolSource } from './agent/tools/tool.js';
import { loadRoutes } from './upstream/loadRoutes.js';
import { observeAttempts } from './upstream/observeAttempts.js';
import { spendSink, type SpendLedger } from './upstream/spendSink.js';
import { budgetGuardFor } from './upstream/budgetGuardFor.js';
import type { BudgetLedger } from './money/BudgetLedger.js';
import type { Config } from './config.js';
import { ConfigError } from './errors/ConfigError.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics/createMetrics.js';
import type { PriceBook } from './money/PriceBook.js';
import { upstreamTimeouts } from './upstream/upstreamTimeouts.js';

function toolsOf(config: Config): Tool[] {
  try {
    return selectTools(config.tools);
  } catch (error) {
    throw new ConfigError(`RXGATE_TOOLS: ${(error as Error).message.replace(/^rxgate: /, '')}`);
  }
}

/** The built-in tools, and on top of them what `extra` offers now: the same array until either changes. */
function combinedTools(builtIn: readonly Tool[], extra: ToolSource): ToolSource {
  let last: { extra: readonly Tool[]; all: readonly Tool[] } | undefined;
  return {
    tools: () => {
      const now = extra.tools();
      if (last?.extra !== now) last = { extra: now, all: [...builtIn, ...now] };
      return last.all;
    },
  };
}

/** What the agent is built with besides the configuration. */
export interface AgentParts {
  readonly metrics?: Metrics;
  /** The MCP servers' tools, offered on top of the built-in ones as they are at each model call: their list changes while the gateway runs. */
  readonly extraTools?: ToolSource;
  /** `RXGATE_PRICES_FILE`'s prices as they are now. */
  readonly prices?: () => PriceBook;
  /** Where each model call's spend is written (the store's usage ledger), besides the cost metrics. */
  readonly ledger?: SpendLedger;
  /** Where keys' budgets are held and settled (the store's); none: budgets are not enforced. */
  readonly budgets?: BudgetLedger;
}

/** The agent the configuration asks for: the LLM agent when a routes file or an upstream is set, else the offline one. */
export function createAgentFor(config: Config, logger: Logger, { metrics, extraTools, prices, ledger, budgets }: AgentParts = {}): Agent {
  const tools = toolsOf(config);
  const requireApproval = approvalPolicy(config.requireApproval);
  const upstream = config.routesFile ? { routes: loadRoutes(config.routesFile, process.env, upstreamTimeouts(config)) } : undefined;
  if (!upstream && (!config.upstreamUrl || !config.upstreamModel)) return createOfflineAgent({ logger, tools, requireApproval });
  return createLlmAgent({
    ...upstream,
    baseUrl: config.upstreamUrl,
    apiKey: config.upstreamApiKey,
    model: config.upstreamModel,
    tools: extraTools ? combinedTools(tools, extraTools) : tools,
    maxIterations: config.maxToolIterations,
    maxToolCallChars: config.maxOutputChars,
    requestTimeoutMs: config.upstreamTimeoutMs,
    firstTokenTimeoutMs: config.upstreamFirstTokenTimeoutMs,
    connectTimeoutMs: config.upstreamConnectTimeoutMs,
    firstByteTimeoutMs: config.upstreamFirstByteTimeoutMs,
    idleTimeoutMs: config.upstreamIdleTimeoutMs,
    attemptObserver: metrics ? observeAttempts(metrics) : undefined,
    maxFrameBytes: config.upstreamMaxFrameBytes,
    requireApproval,
    prices,
    onSpent: spendSink(logger, metrics, ledger),
    budgets:
      budgets &&
      budgetGuardFor(budgets, { reserveOutputTokens: config.budgetReserveOutputTokens, leaseMs: config.budgetLeaseMs }, logger, metrics),
    logger,
    onUpstreamResponse: (status) => metrics?.upstreamRequests.inc({ status }),
  });
}
