import { NEVER } from 'rxjs';
import { StoreError } from '../../src/errors/StoreError.js';
import type { Store } from '../../src/store/Store.js';
import { intercept, interceptStoreParts, type AroundCall } from './interceptStore.js';

/**
 * A store that works like `store` except for the calls `failing` names (`'events.append'`,
 * `'runs.save'`, `'store.enforceRetention'`, ...; default: all of them), which it rejects, and
 * counts, as a store whose disk is full would; a failing `appended$` hints nothing.
 */
export function failingStore(store: Store, failing: (call: string) => boolean = () => true): Store & { readonly failures: number } {
  let failures = 0;
  const around: AroundCall = (call, _args, proceed) => {
    if (!failing(call)) return proceed();
    failures++;
    if (call.endsWith('.appended$')) return NEVER;
    return Promise.reject(new StoreError(call, new Error('SQLITE_IOERR_WRITE: disk I/O error (injected)')));
  };
  return {
    ...interceptStoreParts(store, around),
    enforceRetention: () => intercept(store, 'store', around).enforceRetention(),
    checkWritable: async () => (failing('store.checkWritable') ? 'disk I/O error (injected)' : store.checkWritable()),
    close: () => store.close(),
    get failures() {
      return failures;
    },
  };
}
