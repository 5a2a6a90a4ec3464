import type { Store } from '../../src/store/Store.js';

/** A store whose chosen calls wait for the test; see `holdingStore`. */
export interface HoldingStore {
  readonly store: Store;
  /** Resolves once the first chosen call waits. */
  readonly held: Promise<void>;
  /** Lets every chosen call go on, those waiting and those to come. */
  release(): void;
}

/**
 * A store that works like `store` except for the calls `holds` picks by name (`'runs.save'`,
 * `'conversations.append'`, ...) and arguments, which wait for `release()` before they are made:
 * a barrier inside a run's end, where timing alone would be a guess.
 */
export function holdingStore(store: Store, holds: (call: string, args: readonly unknown[]) => boolean): HoldingStore {
  let hold!: () => void;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (hold = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const guard = <T extends object>(part: T, name: string): T =>
    new Proxy(part, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const call = (args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args);
        return (...args: unknown[]) => {
          if (!holds(`${name}.${String(key)}`, args)) return call(args);
          hold();
          return released.then(() => call(args));
        };
      },
    });
  return {
    store: {
      responses: guard(store.responses, 'responses'),
      runs: guard(store.runs, 'runs'),
      events: guard(store.events, 'events'),
      jobs: guard(store.jobs, 'jobs'),
      idempotency: guard(store.idempotency, 'idempotency'),
      conversations: guard(store.conversations, 'conversations'),
      enforceRetention: () => store.enforceRetention(),
      checkWritable: () => store.checkWritable(),
      close: () => store.close(),
    },
    held,
    release,
  };
}
