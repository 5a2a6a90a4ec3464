import { InterruptedError } from '../errors/InterruptedError.js';
import type { Store } from '../store/Store.js';
import { INTERRUPTED_BY_CRASH } from '../detached/interruptedByCrash.js';
import { toRunError } from './runError.js';
import type { RunObject } from './runObject.js';
import { readRunLog } from './readRunLog.js';

/**
 * Marks the runs a dead process left queued or running as failed, with an error that says so and
 * the output their logs kept, and ends each one's event log with `run.failed` so that a
 * subscriber is not left waiting. A run whose log had ended (its process died before storing the
 * end) is stored as its log ended it. Returns how many it marked.
 */
export async function recoverRuns(store: Store, now = Date.now()): Promise<number> {
  const runs = await store.runs.unfinished<RunObject>();
  const error = toRunError(new InterruptedError(INTERRUPTED_BY_CRASH, 'interrupted'));
  const completedAt = Math.floor(now / 1000);
  for (const run of runs) {
    const logged = await readRunLog(store.events, run.id);
    if (logged.status !== undefined) {
      const ended: RunObject = { ...run, ...logged, completed_at: completedAt };
      await store.runs.save(ended);
      continue;
    }
    const { output, refusal } = logged;
    const failed: RunObject = { ...run, status: 'failed', completed_at: completedAt, output, refusal, pending_approvals: [], error };
    await store.runs.save(failed);
    await store.events.appendLast(run.id, () => ({ type: 'run.failed', data: JSON.stringify({ type: 'run.failed', error }) }));
  }
  return runs.length;
}
