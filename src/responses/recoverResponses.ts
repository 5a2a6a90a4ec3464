import { INTERRUPTED_BY_CRASH } from '../detached/interruptedByCrash.js';
import { InterruptedError } from '../errors/InterruptedError.js';
import type { Store } from '../store/Store.js';
import type { ResponseObject } from './responseObject.js';
import { toResponseError } from './toResponseError.js';

/**
 * Marks the responses a previous process left queued or in progress as failed, with an error
 * that says so; a background response's event log ends with `response.failed`, so that a
 * subscriber is not left waiting. Returns how many it marked.
 */
export function recoverResponses(store: Store): number {
  return store.transaction(() => {
    const responses = store.responses.unfinished<ResponseObject>();
    const error = toResponseError(new InterruptedError(INTERRUPTED_BY_CRASH, 'server_error'));
    for (const stored of responses) {
      const response: ResponseObject = { ...stored, status: 'failed', error };
      store.responses.replace(response);
      if (!response.background) continue;
      store.events.appendLast(response.id, (seq) => ({
        type: 'response.failed',
        data: JSON.stringify({ type: 'response.failed', sequence_number: seq, response }),
      }));
    }
    return responses.length;
  });
}
