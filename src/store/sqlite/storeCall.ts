import { RxgateError } from '../../errors/RxgateError.js';
import { StoreError } from '../../errors/StoreError.js';

/**
 * How the store's writes are going: the last failure, until a write goes through again (the
 * readiness check reports it, since a probe of a few bytes may pass where a large write fails).
 */
export class WriteHealth {
  readonly #failures = new Map<string, string>();

  /** The last failure of any kind of write that has not gone through since (a small write passing says nothing of a large one). */
  get failure(): string | undefined {
    return [...this.#failures.values()].at(-1);
  }

  /** Runs one write; see `storeCall`. */
  write<T>(operation: string, work: () => T): Promise<T> {
    const result = storeCall(operation, work);
    result.then(
      () => this.#failures.delete(operation),
      (error: unknown) => {
        if (error instanceof StoreError) this.#failures.set(operation, error.message);
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
