import type { Store } from '../../src/store/Store.js';

/** What becomes of one call of a store method, named `'<part>.<method>'`: `proceed` makes it. */
export type AroundCall = (call: string, args: readonly unknown[], proceed: () => unknown) => unknown;

/** `part` with every method call going through `around`, named `'<name>.<method>'`. */
export function intercept<T extends object>(part: T, name: string, around: AroundCall): T {
  return new Proxy(part, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        around(`${name}.${String(key)}`, args, () => (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}

/** `store` with every call to the parts that hold its data going through `around`; the rest as it is. */
export function interceptStore(store: Store, around: AroundCall): Store {
  return {
    ...interceptStoreParts(store, around),
    enforceRetention: () => store.enforceRetention(),
    checkWritable: () => store.checkWritable(),
    close: () => store.close(),
  };
}

/** The parts of `store` that hold its data, each intercepted under its name (`'runs.save'`, ...). */
export function interceptStoreParts(
  store: Store,
  around: AroundCall,
): Pick<Store, 'responses' | 'runs' | 'events' | 'jobs' | 'idempotency' | 'conversations' | 'usage' | 'budgets'> {
  return {
    responses: intercept(store.responses, 'responses', around),
    runs: intercept(store.runs, 'runs', around),
    events: intercept(store.events, 'events', around),
    jobs: intercept(store.jobs, 'jobs', around),
    idempotency: intercept(store.idempotency, 'idempotency', around),
    conversations: intercept(store.conversations, 'conversations', around),
    usage: intercept(store.usage, 'usage', around),
    budgets: intercept(store.budgets, 'budgets', around),
  };
}
