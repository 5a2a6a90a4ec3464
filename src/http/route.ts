import type { RequestHandler } from 'express';
import type { RouteHandler } from '../serving/routeHandler.js';
import type { Served } from '../serving/served.js';
import type { AccessLog } from './accessLog.js';
import { answerError } from './answerError.js';

/**
 * Mounts a route handler: what it throws is answered with the OpenAI envelope, and what it
 * resolves to is handed to the access log, which writes once the response is closed.
 */
export function route(accessLog: AccessLog, handler: RouteHandler): RequestHandler {
  // Promise callbacks, not an async function: one suspended at its await was held by every open stream for its life.
  return (req, res) => {
    const log = (served: Served | void) => accessLog(req, res, served ?? undefined);
    const fail = (error: unknown) => {
      answerError(res, error);
      accessLog(req, res, undefined);
    };
    let answered: Served | void | Promise<Served | void>;
    try {
      answered = handler(req, res);
    } catch (error) {
      fail(error);
      return;
    }
    return Promise.resolve(answered).then(log, fail);
  };
}
