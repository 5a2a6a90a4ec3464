import { RxgateError } from '../../errors/RxgateError.js';
import { StoreError } from '../../errors/StoreError.js';

/**
 * How the store's writes are going: the last failure, until a write goes through again (the
 * readiness check reports it, since a probe of a few bytes may pass where a large write fails).
 */
export class WriteHealth {
  failure: string | undefined;

  /** Runs one write; see `storeCall`. */
  write<T>(operation: string, work: () => T): Promise<T> {
    const result = storeCall(operation, work);
    result.then(
      () => (this.failure = undefined),
      (error: unknown) => {
        if (error instanceof StoreError) this.failure = error.message;
      },
    );
    return result;
  }
}

/** Runs one store operation now: a domain error passes as it is, anything else (SQLite's own) is a `StoreError`. */
export function storeCall<T>(operation: string, work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof RxgateError ? error : new StoreError(operation, error));
  }
}
