import { setFlagsFromString } from 'node:v8';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The heap in use after two full collections: what is really retained, for memory checks (measured, not timed). */
export function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

// Held until they are called: a registry nothing holds may be collected with its cleanup never run.
const sentinels = new Set<FinalizationRegistry<undefined>>();

/** Resolves when `FinalizationRegistry` cleanups run after a collection that found its target gone. */
function sentinel(): Promise<void> {
  return new Promise((resolve) => {
    const registry = new FinalizationRegistry<undefined>(() => {
      sentinels.delete(registry);
      resolve();
    });
    sentinels.add(registry);
    registry.register({}, undefined);
  });
}

/** A collection, then the cleanups it made due (a sentinel's among them). */
async function cleanupsAfterGc(): Promise<void> {
  const cleaned = sentinel();
  // Collected from a later turn: a collection in the turn that registered the target kept it.
  await nextTurn();
  gc();
  await cleaned;
}

/** A drop of the heap smaller than this between two weighings is noise, not cleanups still to come. */
const SETTLED_BYTES = 64 * 1024;

/**
 * The heap in use once what a collection found unreachable is gone with what only its
 * `FinalizationRegistry` cleanups held. (`AbortSignal.timeout`, which node-redis calls for every
 * command, keeps each timer in such a registry until its signal is collected.) The cleanups run as
 * tasks after a collection, in a later turn of the event loop than `setImmediate`'s on a busy
 * machine, and one registry at a time: it weighs again after each round of cleanups until a round
 * frees nothing more.
 */
export async function heapAfterFinalizers(): Promise<number> {
  let heap = heapAfterGc();
  for (let round = 0; round < 20; round++) {
    await cleanupsAfterGc();
    const after = heapAfterGc();
    if (after > heap - SETTLED_BYTES) return after;
    heap = after;
  }
  return heap;
}
