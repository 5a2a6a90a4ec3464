import type { Store } from '../../src/store/Store.js';
import { interceptStore, type AroundCall } from './interceptStore.js';

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
  const around: AroundCall = (call, args, proceed) => {
    if (!holds(call, args)) return proceed();
    hold();
    return released.then(proceed);
  };
  return {
    store: interceptStore(store, around),
    held,
    release,
  };
}
