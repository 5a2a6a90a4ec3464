import type { Agent } from '../agent/agent.js';

/**
 * The model names `GET /v1/models` lists, and the only ones a request may ask for: the agent's
 * routes; or, for an agent that answers to any name (no routes file), `modelId` alone, which is
 * listed while any other name is still accepted.
 */
export interface AdvertisedModels {
  /** What the list shows. */
  list(): readonly string[];
  /** Whether a request may ask for `name`. */
  accepts(name: string): boolean;
}

export function advertisedModels(agent: Agent, modelId: string): AdvertisedModels {
  const routes = agent.models ?? ['*'];
  const named = routes.filter((name) => name !== '*');
  const any = routes.includes('*');
  const listed = named.length > 0 ? named : [modelId];
  return {
    list: () => listed,
    accepts: (name) => any || named.includes(name),
  };
}
