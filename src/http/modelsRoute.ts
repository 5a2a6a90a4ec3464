import { RequestError } from '../errors/RequestError.js';
import { localsOf } from '../pipeline/requestLocals.js';
import type { RouteHandler } from '../pipeline/routeHandler.js';
import { mayUseModel } from '../principal.js';

function modelObject(modelId: string, startedAt: number) {
  return { id: modelId, object: 'model', created: Math.floor(startedAt / 1000), owned_by: 'rxgate' };
}

/** `GET /v1/models`: the one model rxgate advertises (unless the request's key may not use it), in OpenAI's list shape. */
export function modelsRoute(modelId: string, startedAt: number): RouteHandler {
  const model = modelObject(modelId, startedAt);
  return (_req, res) => {
    res.json({ object: 'list', data: [model].filter(({ id }) => mayUseModel(localsOf(res).principal, id)) });
  };
}

/**
 * `GET /v1/models/{id}`: the advertised model, or a 404 as OpenAI answers for a model it does not
 * have. Mounted on `/models/*id`, since a model id may hold slashes (`org/model`).
 */
export function retrieveModelRoute(modelId: string, startedAt: number): RouteHandler {
  const model = modelObject(modelId, startedAt);
  return (req, res) => {
    const segments = req.params.id as string | string[];
    const id = Array.isArray(segments) ? segments.join('/') : segments;
    if (id !== modelId || !mayUseModel(localsOf(res).principal, id)) {
      throw new RequestError(
        404,
        `the model '${id}' does not exist; this server advertises '${modelId}' (RXGATE_MODEL_ID)`,
        'invalid_request_error',
        'model',
        'model_not_found',
      );
    }
    res.json(model);
  };
}
