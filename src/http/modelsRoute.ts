import type { Request } from 'express';
import { modelNotFound } from '../errors/modelNotFound.js';
import type { RequestError } from '../errors/RequestError.js';
import { localsOf } from '../serving/requestLocals.js';
import type { RouteHandler } from '../serving/routeHandler.js';
import { mayUseModel } from '../principal.js';
import type { AdvertisedModels } from './advertisedModels.js';

/** A request from Anthropic's clients (`anthropic-version`, or its key as `x-api-key`), answered in Anthropic's shape. */
const asksAnthropic = (req: Request): boolean => req.headers['anthropic-version'] !== undefined || req.headers['x-api-key'] !== undefined;

function modelObject(modelId: string, startedAt: number, anthropic: boolean) {
  return anthropic
    ? { type: 'model', id: modelId, display_name: modelId, created_at: new Date(startedAt).toISOString() }
    : { id: modelId, object: 'model', created: Math.floor(startedAt / 1000), owned_by: 'rxgate' };
}

/** The 404 for a model this server does not advertise, naming those it does. */
export function unadvertisedModel(id: string, models: AdvertisedModels): RequestError {
  const listed = models.list();
  const setting = listed.length === 1 ? 'RXGATE_MODEL_ID' : 'RXGATE_ROUTES_FILE';
  return modelNotFound(id, `${listed.map((name) => `'${name}'`).join(', ')} (${setting})`);
}

/**
 * `GET /v1/models`: the models rxgate advertises (`advertisedModels`) that the request's key may
 * use, in OpenAI's list shape, or Anthropic's (`has_more`, `first_id`, `last_id`) for its clients.
 */
export function modelsRoute(models: AdvertisedModels, startedAt: number): RouteHandler {
  return (req, res) => {
    const { principal } = localsOf(res);
    const anthropic = asksAnthropic(req);
    const ids = models.list().filter((id) => mayUseModel(principal, id));
    const data = ids.map((id) => modelObject(id, startedAt, anthropic));
    res.json(anthropic ? { data, has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null } : { object: 'list', data });
  };
}

/**
 * `GET /v1/models/{id}`: an advertised model the request's key may use (in Anthropic's shape for
 * its clients), or a 404 as OpenAI answers
 * for a model it does not have. Mounted on `/models/*id`, since a model id may hold slashes (`org/model`).
 */
export function retrieveModelRoute(models: AdvertisedModels, startedAt: number): RouteHandler {
  return (req, res) => {
    const segments = req.params.id as string | string[];
    const id = Array.isArray(segments) ? segments.join('/') : segments;
    if (!models.list().includes(id) || !mayUseModel(localsOf(res).principal, id)) throw unadvertisedModel(id, models);
    res.json(modelObject(id, startedAt, asksAnthropic(req)));
  };
}
