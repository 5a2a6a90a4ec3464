import { createLlmAgent, type LlmAgentOptions } from '../../src/agent/llm/createLlmAgent.js';
import { calculatorTool } from '../../src/agent/tools/calculatorTool.js';
import { currentTimeTool } from '../../src/agent/tools/currentTimeTool.js';
import { afterEach } from 'vitest';
import type { AppConfig, CreateAppOptions } from '../../src/http/createApp.js';
import { createScriptedUpstream, unusedBaseUrl, type ScriptedUpstream, type UpstreamScript } from './scriptedUpstream.js';
import { startApp, type TestApp } from './startApp.js';
import { createUnacceptingUpstream, type UnacceptingUpstream } from './unacceptingUpstream.js';
import { watchedLogger } from './watchedLogger.js';

export interface LlmGateway extends TestApp {
  readonly log: ReturnType<typeof watchedLogger>;
}

/**
 * The real app around the real LLM agent (with the built-in `current_time` and `calculator`
 * tools unless `agent.tools` says otherwise), on 127.0.0.1 and a free port, with the app and the
 * agent logging to one watched pino logger; `config` overrides the app's settings, `app` adds to
 * its options (its `tracing`).
 */
export async function startLlmGateway(
  agent: Omit<LlmAgentOptions, 'model' | 'logger'> & Partial<Pick<LlmAgentOptions, 'model'>>,
  config: Partial<AppConfig> = {},
  app: Partial<CreateAppOptions> = {},
): Promise<LlmGateway> {
  const log = watchedLogger();
  const llm = createLlmAgent({ model: 'up-model', tools: [currentTimeTool, calculatorTool], logger: log.logger, ...agent });
  return { ...(await startApp(llm, config, { ...app, logger: log.logger })), log };
}

/** The upstream API key the gateway tests configure; it must never show up in a response or a log. */
export const TEST_API_KEY = 'sk-test-secret-key-1234';

type GatewayOptions = Partial<Parameters<typeof startLlmGateway>[0]>;

/**
 * A scripted upstream and the gateway in front of it, closed after each test. `start` plays
 * `scripts`; `startUnreachable` points the gateway at a port nothing listens on, `startUnaccepting`
 * at one whose listener accepts nothing.
 */
export function useLlmGateway() {
  let upstream: ScriptedUpstream | UnacceptingUpstream | undefined;
  let gateway: LlmGateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    await upstream?.close();
    gateway = undefined;
    upstream = undefined;
  });
  const open = async (baseUrl: string, agent: GatewayOptions, config?: Partial<AppConfig>, app?: Partial<CreateAppOptions>) =>
    (gateway = await startLlmGateway({ baseUrl, apiKey: TEST_API_KEY, ...agent }, config, app));
  return {
    async start(
      scripts: readonly UpstreamScript[],
      agent: GatewayOptions = {},
      config: Partial<AppConfig> = {},
      app: Partial<CreateAppOptions> = {},
    ) {
      const started = await createScriptedUpstream(scripts);
      upstream = started;
      return { upstream: started, gateway: await open(started.baseUrl, agent, config, app) };
    },
    async startUnreachable(agent: GatewayOptions = {}) {
      return { upstream: undefined, gateway: await open(await unusedBaseUrl(), agent) };
    },
    async startUnaccepting(agent: GatewayOptions = {}) {
      const started = await createUnacceptingUpstream();
      upstream = started;
      return { upstream: undefined, gateway: await open(started.baseUrl, agent) };
    },
  };
}
