import { afterEach } from 'vitest';
import { createLlmAgent, type LlmAgentOptions } from '../../src/agent/llm/createLlmAgent.js';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/http/startServer.js';
import { createScriptedUpstream, unusedBaseUrl, type ScriptedUpstream, type UpstreamScript } from './scriptedUpstream.js';

type AgentOptions = Partial<Omit<LlmAgentOptions, 'baseUrl' | 'model' | 'tools'>>;

/**
 * The server as `rxgate` starts it (`startServer`, settings from the environment's names) in front
 * of the LLM agent, with no tools, and a scripted upstream; both shut down after each test.
 */
export function useStartedServer() {
  let upstream: ScriptedUpstream | undefined;
  let running: RunningServer | undefined;
  afterEach(async () => {
    await running?.shutdown(0);
    await upstream?.close();
    running = undefined;
    upstream = undefined;
  });
  return {
    /** The upstream of the test's server, once started with scripts. */
    get upstream(): ScriptedUpstream | undefined {
      return upstream;
    },
    /** Starts the server: `scripts` played by the upstream (`undefined`: nothing listens on its port), the agent's `options`, the server's `env`. */
    async start(
      scripts: readonly UpstreamScript[] | undefined,
      env: Record<string, string> = {},
      options: AgentOptions = {},
    ): Promise<RunningServer> {
      if (scripts) upstream = await createScriptedUpstream(scripts);
      const baseUrl = upstream?.baseUrl ?? (await unusedBaseUrl());
      const agent = createLlmAgent({ baseUrl, model: 'up', tools: [], ...options });
      running = await startServer({ agent, config: loadConfig({ RXGATE_PORT: '0', ...env }) });
      return running;
    },
  };
}
