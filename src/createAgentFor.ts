import type { Agent } from './agent/agent.js';
import { createLlmAgent } from './agent/llm/createLlmAgent.js';
import { createOfflineAgent } from './agent/offline/createOfflineAgent.js';
import { selectTools } from './agent/tools/createToolRegistry.js';
import type { Tool, ToolSource } from './agent/tools/tool.js';
import type { Config } from './config.js';
import { ConfigError } from './errors/ConfigError.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics/createMetrics.js';

function toolsOf(config: Config): Tool[] {
  try {
    return selectTools(config.tools);
  } catch (error) {
    throw new ConfigError(`RXGATE_TOOLS: ${(error as Error).message.replace(/^rxgate: /, '')}`);
  }
}

/**
 * The agent the configuration asks for: the LLM agent when an upstream is set, else the offline one.
 * `extraTools` (the MCP servers' tools) are offered on top of the built-in ones; their list changes
 * while the gateway runs, so each run gets an agent over the tools of the moment it starts.
 */
export function createAgentFor(config: Config, logger: Logger, metrics?: Metrics, extraTools?: ToolSource): Agent {
  const tools = toolsOf(config);
  if (!config.upstreamUrl || !config.upstreamModel) return createOfflineAgent({ logger, tools });
  const llmAgent = (offered: readonly Tool[]) =>
    createLlmAgent({
      baseUrl: config.upstreamUrl!,
      apiKey: config.upstreamApiKey,
      model: config.upstreamModel!,
      tools: offered,
      maxIterations: config.maxToolIterations,
      requestTimeoutMs: config.upstreamTimeoutMs,
      firstTokenTimeoutMs: config.upstreamFirstTokenTimeoutMs,
      logger,
      onUpstreamResponse: (status) => metrics?.upstreamRequests.inc({ status }),
    });
  const builtIn = llmAgent(tools);
  if (!extraTools) return builtIn;
  // The source returns the same array until its tools change: one agent per version of the list.
  let current: { extra: readonly Tool[]; agent: Agent } | undefined;
  const agent: Agent = {
    description: `${builtIn.description.replace(/\)$/, '')}, and the tools of the MCP servers)`,
    run(request, cancellation) {
      const extra = extraTools.tools();
      if (current?.extra !== extra) current = { extra, agent: extra.length === 0 ? builtIn : llmAgent([...tools, ...extra]) };
      return current.agent.run(request, cancellation);
    },
  };
  return agent;
}
