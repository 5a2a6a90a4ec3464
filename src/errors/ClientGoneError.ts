import { RxgateError } from './RxgateError.js';

/** A write to the client failed (EPIPE, ECONNRESET, a destroyed socket): the client is gone. */
export class ClientGoneError extends RxgateError {
  constructor(cause: unknown) {
    super('the client connection failed while writing', { cause });
  }
}
