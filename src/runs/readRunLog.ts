import { readLog } from '../detached/readLog.js';
import type { EventLog } from '../store/EventLog.js';
import type { RunEvent } from './runEvent.js';
import type { PendingApproval, RunObject } from './runObject.js';

/** What a run's log says of it: what `GET /v1/runs/{id}` shows that changes as it goes, and, once it ended, how. */
export type LoggedRun = Pick<RunObject, 'output' | 'refusal' | 'pending_approvals'> &
  Partial<Pick<RunObject, 'status' | 'usage' | 'error'>>;

type Logged<T extends RunEvent['type']> = Extract<RunEvent, { type: T }>;

/**
 * Reads the log of run `id`: the output (and refusal) streamed so far, the approvals asked for and
 * not yet resolved, and its end (`status`, with `usage` or `error`) if it has one. The log is what
 * the run's host writes first, so on any instance it is the run's true state; its stored copy only
 * catches up with it.
 */
export async function readRunLog(log: EventLog, id: string): Promise<LoggedRun> {
  let output = '';
  let refusal: string | null = null;
  const pending = new Map<string, PendingApproval>();
  let end: Partial<Pick<RunObject, 'status' | 'usage' | 'error'>> | undefined;
  // Only the events that change the run are parsed: reasoning deltas and tool progress go by unread.
  await readLog(log, id, ({ type, data }) => {
    if (type === 'message.delta') output += (JSON.parse(data) as Logged<'message.delta'>).delta;
    else if (type === 'refusal.delta') refusal = (refusal ?? '') + (JSON.parse(data) as Logged<'refusal.delta'>).delta;
    else if (type === 'approval.required') {
      const { approval_id, call_id, tool, arguments: args, expires_at } = JSON.parse(data) as Logged<'approval.required'>;
      pending.set(approval_id, { approval_id, call_id, tool, arguments: args, expires_at });
    } else if (type === 'approval.resolved') pending.delete((JSON.parse(data) as Logged<'approval.resolved'>).approval_id);
    else if (type === 'run.completed') {
      const completed = JSON.parse(data) as Logged<'run.completed'>;
      ({ output, refusal } = completed);
      end = { status: 'completed', usage: completed.usage };
    } else if (type === 'run.failed') end = { status: 'failed', error: (JSON.parse(data) as Logged<'run.failed'>).error };
    else if (type === 'run.cancelled') end = { status: 'cancelled' };
  });
  // An ended run waits for nobody: calls it left unanswered went with it.
  return { output, refusal, pending_approvals: end ? [] : [...pending.values()], ...end };
}
