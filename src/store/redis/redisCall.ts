import { RxgateError } from '../../errors/RxgateError.js';
import { StoreError } from '../../errors/StoreError.js';

/** Runs one Redis operation: a domain error passes as it is, anything else (a refused connection, an error reply) is a `StoreError`. */
export async function redisCall<T>(operation: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof RxgateError ? error : new StoreError(operation, error);
  }
}
