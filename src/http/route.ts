import type { RequestHandler } from 'express';
import type { RouteHandler } from '../pipeline/routeHandler.js';
import type { Served } from '../pipeline/served.js';
import type { AccessLog } from './accessLog.js';
import { answerError } from './answerError.js';

/**
 * Mounts a route handler: what it throws is answered with the OpenAI envelope, and what it
 * resolves to is handed to the access log, which writes once the response is closed.
 */
export function route(accessLog: AccessLog, handler: RouteHandler): RequestHandler {
  return async (req, res) => {
    let served: Served | void = undefined;
    try {
      served = await handler(req, res);
    } catch (error) {
      answerError(res, error);
    }
    accessLog(req, res, served ?? undefined);
  };
}
