import { request, type Agent } from 'undici';
import { chatBody, type Scenario } from './benchUpstream.js';
import { launchGateway } from './launchGateway.js';
import type { BenchUpstream } from './launchUpstream.js';
import { median } from './stats.js';

/** Which API a request went through. */
export type MessagesCostApi = 'chat completions' | 'messages';

export interface MessagesCostRow {
  readonly api: MessagesCostApi;
  /** Requests per round. */
  readonly requests: number;
  /** The gateway process's CPU time per request, in µs: the median of the rounds. */
  readonly cpuMicrosPerRequest: number;
  readonly rounds: readonly number[];
}

const SCENARIO: Scenario = { deltas: 8, everyMs: 0, text: 'Hello ' };

/** A streaming Messages request carrying the scenario, as Claude Code sends it (without its tools and system prompt). */
export function messagesBody(scenario: Scenario): string {
  return JSON.stringify({
    model: 'bench',
    max_tokens: 1024,
    stream: true,
    messages: [{ role: 'user', content: JSON.stringify(scenario) }],
  });
}

const REQUESTS: Readonly<Record<MessagesCostApi, { path: string; body: string }>> = {
  'chat completions': { path: '/v1/chat/completions', body: chatBody(SCENARIO, true) },
  messages: { path: '/v1/messages', body: messagesBody(SCENARIO) },
};

/** One request read to its end; throws unless it answered 200. */
async function post(client: Agent, origin: string, api: MessagesCostApi): Promise<void> {
  const { path, body } = REQUESTS[api];
  const response = await request(`${origin}${path}`, {
    method: 'POST',
    dispatcher: client,
    headers: { 'content-type': 'application/json' },
    body,
  });
  await response.body.dump({ limit: Number.MAX_SAFE_INTEGER });
  if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}`);
}

/**
 * What a streaming Messages request costs beside a chat completion (issue 45: within 1.2×): one
 * rxgate process, the same 8-delta answer through either API, `requests` sequential requests a
 * round, the rounds alternating between the two APIs (the first of each unmeasured), each figure
 * the process's CPU time per request, the median of its rounds.
 */
export async function measureMessagesCost(
  client: Agent,
  upstream: BenchUpstream,
  { rounds, requests }: { rounds: number; requests: number },
): Promise<MessagesCostRow[]> {
  const gateway = await launchGateway('rxgate', upstream.baseUrl);
  const apis = Object.keys(REQUESTS) as MessagesCostApi[];
  const samples = new Map(apis.map((api) => [api, [] as number[]]));
  const round = async (api: MessagesCostApi) => {
    const before = (await gateway.stats()).cpuMicros;
    for (let i = 0; i < requests; i++) await post(client, gateway.origin, api);
    return ((await gateway.stats()).cpuMicros - before) / requests;
  };
  for (const api of apis) await round(api);
  for (let r = 0; r < rounds; r++) {
    // Each round starts with the other API, so that neither always runs just after the other.
    for (const api of r % 2 === 0 ? apis : [...apis].reverse()) samples.get(api)!.push(await round(api));
  }
  await gateway.stop();
  return apis.map((api) => ({ api, requests, cpuMicrosPerRequest: median(samples.get(api)!), rounds: samples.get(api)! }));
}
