import type { Response } from 'express';
import { toOpenAIError } from '../errors/toOpenAIError.js';
import { sendJsonAnswer } from './jsonAnswer.js';

/** Answers with the OpenAI error envelope; a response that already started is cut instead. */
export function sendError(res: Response, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJsonAnswer(res, toOpenAIError(error));
}
