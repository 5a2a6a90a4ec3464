import type { RouteHandler } from '../pipeline/routeHandler.js';

/** `GET /v1/models`: the one model rxgate advertises, in OpenAI's list shape. */
export function modelsRoute(modelId: string, startedAt: number): RouteHandler {
  const model = { id: modelId, object: 'model', created: Math.floor(startedAt / 1000), owned_by: 'rxgate' };
  return (_req, res) => {
    res.json({ object: 'list', data: [model] });
  };
}
