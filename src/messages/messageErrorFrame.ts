import { toAnthropicError } from '../errors/toAnthropicError.js';
import { serializeFrame } from '../sse/serializeFrame.js';

const OVERLOADED = new Set(['overloaded_error', 'rate_limit_error']);

/**
 * The `error` event that ends a Messages stream which failed after its headers: Anthropic's
 * envelope, `overloaded_error` for what a 429 or 529 would say (every upstream down, the server
 * ending the stream) and `api_error` otherwise, the message naming the cause.
 */
export function messageErrorFrame(error: unknown): string {
  const { body } = toAnthropicError(error);
  const type = OVERLOADED.has(body.error.type) ? 'overloaded_error' : 'api_error';
  return serializeFrame({ event: 'error', data: JSON.stringify({ type: 'error', error: { type, message: body.error.message } }) });
}
