import { InterruptReason } from '../agent/interruptReason.js';
import type { LoggedEvent } from '../store/EventLog.js';
import type { DetachedContext } from './detachedContext.js';
import type { DetachedKind } from './DetachedRuns.js';
import { logEnded } from './logEnded.js';

/**
 * Stops detached run `id` with `Stop requested via API`, wherever it runs: here, it is stopped and
 * awaited; on another instance, the request is recorded and signalled to its owner, and this
 * resolves once its log ends (or the coordinator's `stopWithinMs` passed, the request standing).
 */
export async function stopDetached(
  context: DetachedContext,
  id: string,
  kind: DetachedKind,
  isTerminal: (event: LoggedEvent) => boolean,
): Promise<void> {
  const live = context.detached.get(id, kind);
  if (live) return live.stop(InterruptReason.stopRequested);
  const { coordinator } = context.detached;
  await coordinator.requestStop(id);
  await logEnded(context.store.events, id, isTerminal, coordinator.stopWithinMs);
}

/** What `ended` a follower of a run not in flight here waits for: none if it has finished, else its log's own terminal event. */
export function endedElsewhere(unfinished: boolean): Promise<void> | undefined {
  return unfinished ? new Promise<void>(() => undefined) : undefined;
}
