import { RxgateError } from './RxgateError.js';

/**
 * A request without a key rxgate accepts: missing, malformed, unknown, expired or revoked. All of
 * them are this one error with this one message, so that the answer tells nothing of which it was.
 */
export class InvalidApiKeyError extends RxgateError {
  constructor() {
    super('invalid or missing API key; send Authorization: Bearer <key>');
  }
}
