import { createLlmAgent, type LlmAgentOptions } from '../../src/agent/llm/createLlmAgent.js';
import { calculatorTool } from '../../src/agent/tools/calculatorTool.js';
import { currentTimeTool } from '../../src/agent/tools/currentTimeTool.js';
import { startApp, type TestApp } from './startApp.js';
import { watchedLogger } from './watchedLogger.js';

export interface LlmGateway extends TestApp {
  readonly log: ReturnType<typeof watchedLogger>;
}

/**
 * The real app around the real LLM agent (with the built-in `current_time` and `calculator`
 * tools unless `agent.tools` says otherwise), on 127.0.0.1 and a free port, with the app and the
 * agent logging to one watched pino logger.
 */
export async function startLlmGateway(agent: Omit<LlmAgentOptions, 'model' | 'logger'> & Partial<Pick<LlmAgentOptions, 'model'>>): Promise<LlmGateway> {
  const log = watchedLogger();
  const llm = createLlmAgent({ model: 'up-model', tools: [currentTimeTool, calculatorTool], logger: log.logger, ...agent });
  return { ...(await startApp(llm, {}, { logger: log.logger })), log };
}
