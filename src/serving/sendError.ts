import type { Response } from 'express';
import { toAnthropicError } from '../errors/toAnthropicError.js';
import { toOpenAIError } from '../errors/toOpenAIError.js';
import { sendJsonAnswer } from './jsonAnswer.js';
import { localsOf } from './requestLocals.js';

/** Answers with the error envelope of the request's dialect (OpenAI's, or Anthropic's); a response that already started is cut instead. */
export function sendError(res: Response, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJsonAnswer(res, localsOf(res).dialect === 'anthropic' ? toAnthropicError(error) : toOpenAIError(error));
}
