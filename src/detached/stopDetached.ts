import { setTimeout as delay } from 'node:timers/promises';
import { InterruptReason } from '../agent/interruptReason.js';
import type { LoggedEvent } from '../store/EventLog.js';
import type { DetachedContext } from './detachedContext.js';
import type { DetachedKind } from './DetachedRuns.js';
import { logEnded } from './logEnded.js';

/** How often an instance that asked another to stop a run looks whether its final state is stored, once its log has ended. */
const SETTLED_POLL_MS = 20;

export interface StopOptions {
  readonly isTerminal: (event: LoggedEvent) => boolean;
  /** Whether the stored object has its final state (the owner stores it just after the log's last event). */
  readonly isSettled: () => Promise<boolean>;
}

/**
 * Stops detached run `id` with `Stop requested via API`, wherever it runs: here, it is stopped and
 * awaited; on another instance, the request is recorded and signalled to its owner, and this
 * resolves once its log has ended and its final state is stored, or once the coordinator's
 * `stopWithinMs` passed (the request stands, the owner or a sweeper still ends it).
 */
export async function stopDetached(context: DetachedContext, id: string, kind: DetachedKind, options: StopOptions): Promise<void> {
  const live = context.detached.get(id, kind);
  if (live) return live.stop(InterruptReason.stopRequested);
  const { coordinator } = context.detached;
  const deadline = performance.now() + coordinator.stopWithinMs;
  await coordinator.requestStop(id);
  if (!(await logEnded(context.store.events, id, options.isTerminal, coordinator.stopWithinMs))) return;
  while (!(await options.isSettled()) && performance.now() < deadline) await delay(SETTLED_POLL_MS);
}
