import { randomUUID } from 'node:crypto';
import { exhaustMap, interval } from 'rxjs';
import { RequestError } from '../errors/RequestError.js';
import type { ConversationStore } from '../store/ConversationStore.js';

/** A conversation's lock, held: who holds it, and how to give it back (once; later calls do nothing). */
export interface ConversationHold {
  readonly holder: string;
  release(): Promise<void>;
}

/**
 * Takes the lock of conversation `id` for a new holder and renews it every third of the store's
 * lease until released; a 409 `conversation_locked` while someone else holds it. A holder that
 * dies stops renewing, and the lock lapses within one lease.
 */
export async function holdConversation(store: ConversationStore, id: string, param: string | null = null): Promise<ConversationHold> {
  const holder = randomUUID();
  if (!(await store.lock(id, holder))) {
    throw new RequestError(
      409,
      `conversation '${id}' is being continued by another response or run; send this one once that has ended`,
      'invalid_request_error',
      param,
      'conversation_locked',
    );
  }
  // A failed renewal is retried at the next tick; the lease outlasts two of them.
  const renewal = interval(store.leaseMs / 3)
    .pipe(exhaustMap(() => store.lock(id, holder).catch(() => false)))
    .subscribe();
  let released: Promise<void> | undefined;
  return {
    holder,
    release: () => {
      renewal.unsubscribe();
      released ??= store.unlock(id, holder).catch(() => undefined);
      return released;
    },
  };
}
