import { INTERRUPTED_BY_CRASH } from '../detached/interruptedByCrash.js';
import { InterruptedError } from '../errors/InterruptedError.js';
import type { Store } from '../store/Store.js';
import type { ResponseObject } from '../openai/responseObject.js';
import { storedOutput } from './storedOutput.js';
import { toResponseError } from './toResponseError.js';

/**
 * Marks the responses a dead process left queued or in progress as failed, with an error that
 * says so; a response with an event log (a background one, a foreground stream under an
 * `Idempotency-Key`) gets the output its log kept, and its log ends with `response.failed`, so
 * that a subscriber is not left waiting. Returns how many it marked.
 */
export async function recoverResponses(store: Store): Promise<number> {
  const responses = await store.responses.unfinished<ResponseObject>();
  const error = toResponseError(new InterruptedError(INTERRUPTED_BY_CRASH, 'server_error'));
  for (const stored of responses) {
    if (!stored.background && (await store.events.last(stored.id)) === undefined) {
      const failed: ResponseObject = { ...stored, status: 'failed', error };
      await store.responses.replace(failed);
      continue;
    }
    const response: ResponseObject = { ...stored, status: 'failed', error, output: await storedOutput(store.events, stored.id) };
    await store.responses.replace(response);
    await store.events.appendLast(response.id, (seq) => ({
      type: 'response.failed',
      data: JSON.stringify({ type: 'response.failed', sequence_number: seq, response }),
    }));
  }
  return responses.length;
}
