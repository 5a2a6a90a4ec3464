import { RxgateError } from './RxgateError.js';

/**
 * A run that did not finish because something ended it first: a stop, a shutdown, a crash found
 * on restart. `code` says which (`stopped`, `shutdown`, `interrupted`).
 */
export class InterruptedError extends RxgateError {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}
