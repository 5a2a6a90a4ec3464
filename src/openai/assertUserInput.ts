import type { ChatMessage } from '../agent/agent.js';
import { hasText } from '../agent/hasText.js';
import { RequestError } from '../errors/RequestError.js';

/** A conversation the model can answer has a user message with content; anything else is a 400 on `input`. */
export function assertUserInput(messages: readonly ChatMessage[]): void {
  if (messages.some((m) => m.role === 'user' && hasText(m.content))) return;
  throw new RequestError(
    400,
    "invalid 'input': input must contain a user message with content",
    'invalid_request_error',
    'input',
    'invalid_value',
  );
}
