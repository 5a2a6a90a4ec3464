import type { Response } from 'express';
import { toOpenAIError } from '../errors/toOpenAIError.js';

/** Answers with the OpenAI error envelope; a response that already started is cut instead. */
export function sendError(res: Response, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const { status, body, headers = {} } = toOpenAIError(error);
  res.status(status).set(headers).json(body);
}
