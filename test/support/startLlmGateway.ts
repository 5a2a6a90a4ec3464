import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLlmAgent, type LlmAgentOptions } from '../../src/agent/llm/createLlmAgent.js';
import { calculatorTool } from '../../src/agent/tools/calculatorTool.js';
import { currentTimeTool } from '../../src/agent/tools/currentTimeTool.js';
import { loadConfig } from '../../src/config.js';
import { createApp } from '../../src/http/createApp.js';
import { watchedLogger } from './watchedLogger.js';

export interface LlmGateway {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly log: ReturnType<typeof watchedLogger>;
  close(): Promise<void>;
}

/**
 * The real app around the real LLM agent (with the built-in `current_time` and `calculator`
 * tools unless `agent.tools` says otherwise), on 127.0.0.1 and a free port, with the app and the
 * agent logging to one watched pino logger.
 */
export async function startLlmGateway(agent: Omit<LlmAgentOptions, 'model' | 'logger'> & Partial<Pick<LlmAgentOptions, 'model'>>): Promise<LlmGateway> {
  const log = watchedLogger();
  const llm = createLlmAgent({ model: 'up-model', tools: [currentTimeTool, calculatorTool], logger: log.logger, ...agent });
  const { app } = createApp({ agent: llm, config: loadConfig({}), logger: log.logger });
  const server = createServer(app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
