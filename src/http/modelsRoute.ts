import { RequestError } from '../errors/RequestError.js';
import type { RouteHandler } from '../pipeline/routeHandler.js';
import type { AdvertisedModels } from './advertisedModels.js';

function modelObject(modelId: string, startedAt: number) {
  return { id: modelId, object: 'model', created: Math.floor(startedAt / 1000), owned_by: 'rxgate' };
}

/** The 404 OpenAI answers for a model it does not have; `models` says which this server has. */
export function modelNotFound(id: string, models: AdvertisedModels): RequestError {
  const listed = models.list();
  const which =
    listed.length === 1 ? `'${listed[0]}' (RXGATE_MODEL_ID)` : `${listed.map((name) => `'${name}'`).join(', ')} (RXGATE_ROUTES_FILE)`;
  return new RequestError(
    404,
    `the model '${id}' does not exist; this server advertises ${which}`,
    'invalid_request_error',
    'model',
    'model_not_found',
  );
}

/** `GET /v1/models`: the models rxgate advertises (`advertisedModels`), in OpenAI's list shape. */
export function modelsRoute(models: AdvertisedModels, startedAt: number): RouteHandler {
  return (_req, res) => {
    res.json({ object: 'list', data: models.list().map((id) => modelObject(id, startedAt)) });
  };
}

/**
 * `GET /v1/models/{id}`: an advertised model, or a 404 as OpenAI answers for a model it does not
 * have. Mounted on `/models/*id`, since a model id may hold slashes (`org/model`).
 */
export function retrieveModelRoute(models: AdvertisedModels, startedAt: number): RouteHandler {
  return (req, res) => {
    const segments = req.params.id as string | string[];
    const id = Array.isArray(segments) ? segments.join('/') : segments;
    if (!models.list().includes(id)) throw modelNotFound(id, models);
    res.json(modelObject(id, startedAt));
  };
}
