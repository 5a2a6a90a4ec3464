import { NEVER } from 'rxjs';
import { StoreError } from '../../src/errors/StoreError.js';
import type { Store } from '../../src/store/Store.js';

/**
 * A store that works like `store` except for the calls `failing` names (`'events.append'`,
 * `'runs.save'`, `'store.enforceRetention'`, ...; default: all of them), which it rejects, and
 * counts, as a store whose disk is full would; a failing `appended$` hints nothing.
 */
export function failingStore(store: Store, failing: (call: string) => boolean = () => true): Store & { readonly failures: number } {
  let failures = 0;
  const guard = <T extends object>(part: T, name: string): T =>
    new Proxy(part, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (!failing(`${name}.${String(key)}`)) return (value as (...a: unknown[]) => unknown).apply(target, args);
          failures++;
          if (key === 'appended$') return NEVER;
          return Promise.reject(new StoreError(`${name}.${String(key)}`, new Error('SQLITE_IOERR_WRITE: disk I/O error (injected)')));
        };
      },
    });
  return {
    responses: guard(store.responses, 'responses'),
    runs: guard(store.runs, 'runs'),
    events: guard(store.events, 'events'),
    jobs: guard(store.jobs, 'jobs'),
    idempotency: guard(store.idempotency, 'idempotency'),
    conversations: guard(store.conversations, 'conversations'),
    enforceRetention: () => guard(store, 'store').enforceRetention(),
    checkWritable: async () => (failing('store.checkWritable') ? 'disk I/O error (injected)' : store.checkWritable()),
    close: () => store.close(),
    get failures() {
      return failures;
    },
  };
}
