import type { RunRecord } from '../../src/store/RunStore.js';
import type { Store } from '../../src/store/Store.js';
import { interceptStore, type AroundCall } from './interceptStore.js';

/** A store whose saves of a run after its start wait for the test; see `heldRunSaves`. */
export interface HeldRunSaves {
  readonly store: Store;
  /** Lets the save of a run's end go; resolves once it is stored (made after this call, or before). */
  releaseFinal(): Promise<void>;
  /** Lets the saves made while a run went on (after its start, before its end) go; resolves once every one has settled. */
  releaseLate(): Promise<void>;
}

const UNFINISHED = new Set(['queued', 'running']);

/**
 * A store that works like `store`, except that a run's saves after its first one (which names
 * the owner) wait for the test: the stored copy of a run lags its log, as it does whenever a
 * save is slow, and a save made while the run went on can land after the one of its end.
 */
export function heldRunSaves(store: Store): HeldRunSaves {
  let releaseFinal!: () => void;
  let releaseLate!: () => void;
  const finalReleased = new Promise<void>((resolve) => (releaseFinal = resolve));
  const lateReleased = new Promise<void>((resolve) => (releaseLate = resolve));
  let finalStored!: () => void;
  const stored = new Promise<void>((resolve) => (finalStored = resolve));
  const lates: Promise<unknown>[] = [];
  const around: AroundCall = (call, args, proceed) => {
    const [run, owner] = args as [RunRecord, string | undefined];
    if (call !== 'runs.save' || owner !== undefined) return proceed();
    if (!UNFINISHED.has(run.status)) return finalReleased.then(proceed).then(finalStored);
    const saved = lateReleased.then(proceed);
    lates.push(saved.catch(() => undefined));
    return saved;
  };
  return {
    store: interceptStore(store, around),
    releaseFinal: async () => {
      releaseFinal();
      await stored;
    },
    releaseLate: async () => {
      releaseLate();
      await Promise.all(lates);
    },
  };
}
