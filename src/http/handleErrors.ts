import type { ErrorRequestHandler } from 'express';
import type { AccessLog } from './accessLog.js';
import { answerError } from './answerError.js';

/** The last middleware: an error before any route (auth, body parsing, no such route) becomes an OpenAI envelope. */
export function handleErrors(accessLog: AccessLog): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    answerError(res, error);
    accessLog(req, res);
  };
}
