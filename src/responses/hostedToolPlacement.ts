import type { MappableHostedTool } from '../config.js';
import type { HostedCallItem } from '../openai/responseObject.js';

/** `RXGATE_HOSTED_TOOLS`: what a request's hosted tools (which rxgate cannot run) get. */
export type HostedToolsPolicy = 'ignore' | 'refuse';

/** `RXGATE_HOSTED_TOOLS_MAP`: the server tool an operator put in place of each hosted tool, by the name the model calls it. */
export type HostedToolsMap = Readonly<Partial<Record<MappableHostedTool, string>>>;

/** What a request's hosted tools get, as the settings and the agent's tools of the moment decide it. */
export interface HostedToolPlacement {
  readonly policy: HostedToolsPolicy;
  /** The server tool standing in for hosted tool `type`, and the item its calls are reported as: mapped, and run by the agent now. */
  standInFor(type: string): { readonly tool: string; readonly item: HostedCallItem['type'] } | undefined;
}

const callItemOf = (type: MappableHostedTool): HostedCallItem['type'] => (type === 'file_search' ? 'file_search_call' : 'web_search_call');

/** The settings a placement is made of, as the Responses API's context holds them. */
interface HostedToolSettings {
  readonly hostedTools: HostedToolsPolicy;
  readonly hostedToolsMap: HostedToolsMap;
  readonly agent: { readonly serverToolNames?: readonly string[] };
}

/**
 * The placement of one request's hosted tools. A mapped tool the agent does not have (an MCP
 * server that is down, a name that is wrong) stands in for nothing: the hosted tool is then
 * ignored or refused as an unmapped one is.
 */
export function hostedToolsOf({ hostedTools, hostedToolsMap, agent }: HostedToolSettings): HostedToolPlacement {
  const serverToolNames = agent.serverToolNames ?? [];
  return {
    policy: hostedTools,
    standInFor(type) {
      const tool = hostedToolsMap[type as MappableHostedTool];
      return tool !== undefined && serverToolNames.includes(tool) ? { tool, item: callItemOf(type as MappableHostedTool) } : undefined;
    },
  };
}
