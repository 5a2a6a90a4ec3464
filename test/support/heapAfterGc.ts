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

/**
 * The heap in use once what a collection found unreachable is gone with what only its
 * `FinalizationRegistry` cleanups held: they run in a turn of the event loop after the collection.
 * (`AbortSignal.timeout`, which node-redis calls for every command, keeps each timer in such a
 * registry until its signal is collected.)
 */
export async function heapAfterFinalizers(): Promise<number> {
  gc();
  await nextTurn();
  return heapAfterGc();
}
