import type { Agent } from './agent/agent.js';
import { createLlmAgent } from './agent/llm/createLlmAgent.js';
import { createOfflineAgent } from './agent/offline/createOfflineAgent.js';
import { selectTools } from './agent/tools/createToolRegistry.js';
import type { Tool } from './agent/tools/tool.js';
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

/** The agent the configuration asks for: the LLM agent when an upstream is set, else the offline one. */
export function createAgentFor(config: Config, logger: Logger, metrics?: Metrics): Agent {
  const tools = toolsOf(config);
  if (!config.upstreamUrl || !config.upstreamModel) return createOfflineAgent({ logger, tools });
  return createLlmAgent({
    baseUrl: config.upstreamUrl,
    apiKey: config.upstreamApiKey,
    model: config.upstreamModel,
    tools,
    maxIterations: config.maxToolIterations,
    requestTimeoutMs: config.upstreamTimeoutMs,
    firstTokenTimeoutMs: config.upstreamFirstTokenTimeoutMs,
    maxFrameBytes: config.upstreamMaxFrameBytes,
    logger,
    onUpstreamResponse: (status) => metrics?.upstreamRequests.inc({ status }),
  });
}
