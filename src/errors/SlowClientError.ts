import { RxgateError } from './RxgateError.js';

/** A client did not read fast enough to keep what it owes under the bound. */
export class SlowClientError extends RxgateError {
  constructor(
    readonly heldBytes: number,
    readonly maxBufferedBytes: number,
  ) {
    super(
      `the client held ${heldBytes} unread bytes, over the bound of ${maxBufferedBytes}; ` +
        'it was disconnected (raise RXGATE_MAX_BUFFERED_BYTES if clients are legitimately slow)',
    );
  }
}
