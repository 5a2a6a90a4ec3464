import { RxgateError } from './RxgateError.js';

/** The store could not read or write (a full disk, an I/O error, a store server that does not answer). */
export class StoreError extends RxgateError {
  constructor(operation: string, cause: unknown) {
    super(`the store failed to ${operation}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
