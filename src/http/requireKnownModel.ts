import type { RequestHandler } from 'express';
import type { AdvertisedModels } from './advertisedModels.js';
import { unadvertisedModel } from './modelsRoute.js';

/**
 * Refuses, before anything runs or any header is sent, a request whose `model` no route takes:
 * a 404 `model_not_found` with the envelope, whether or not it asked to stream.
 */
export function requireKnownModel(models: AdvertisedModels): RequestHandler {
  return (req, _res, next) => {
    const model = (req.body as { model?: unknown } | undefined)?.model;
    next(typeof model === 'string' && !models.accepts(model) ? unadvertisedModel(model, models) : undefined);
  };
}
