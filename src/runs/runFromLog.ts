import { readRunLog } from './readRunLog.js';
import type { RunObject } from './runObject.js';
import type { RunsContext } from './runsContext.js';
import { shownRun } from './shownRun.js';

/**
 * A run stored unfinished that this instance does not host, as its log tells it: its output so far,
 * the approvals that wait, or its end (which its host stores after logging it: until then the stored
 * `completed_at` is still null); `stopping` while a stop requested of it is pending.
 */
export async function runFromLog(context: RunsContext, stored: RunObject): Promise<RunObject> {
  const logged = await readRunLog(context.store.events, stored.id);
  const shown = shownRun({ ...stored, ...logged });
  if (logged.status !== undefined) return shown;
  return (await context.detached.coordinator.stopRequested(stored.id)) ? { ...shown, status: 'stopping' } : shown;
}
