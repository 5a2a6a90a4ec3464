import type { RunObject } from './runObject.js';

/**
 * A run as the API shows it: a running run with calls waiting for a person is
 * `waiting_for_approval`. It is stored `running` (the store knows queued and running runs as the
 * unfinished ones); which calls wait is in its log (see `readRunLog`) and, on its host, in memory.
 * A run stored before runs had a `refusal` shows `null`.
 */
export function shownRun(run: RunObject): RunObject {
  const pending = run.pending_approvals ?? [];
  return {
    ...run,
    refusal: run.refusal ?? null,
    pending_approvals: pending,
    status: run.status === 'running' && pending.length > 0 ? 'waiting_for_approval' : run.status,
  };
}
