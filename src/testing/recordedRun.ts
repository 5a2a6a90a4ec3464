import type { Observable, SchedulerLike } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { Cancellation } from '../agent/cancellation.js';
import { createRun } from '../agent/createRun.js';
import type { InterruptReason } from '../agent/interruptReason.js';

/** How a recorded run answers an interrupt: it records it, it has no interrupt handle, or its interrupt throws. */
export type InterruptHandle = 'records' | 'none' | 'throws';

export interface RecordedRun {
  /** The run, as an agent returns it: `events$` behind `createRun`. */
  readonly run$: Observable<AgentEvent>;
  /** Each interrupt call, with the virtual frame it happened at. */
  readonly interrupts: { reason: InterruptReason; frame: number }[];
  /** The frames at which the run's AbortSignal fired. */
  readonly aborts: number[];
}

/**
 * A scripted interruptible run in virtual time: `events$` is what the agent emits, and every
 * interrupt and abort is recorded with the frame it happened at, so that a marble spec can assert
 * when the run was stopped.
 */
export function recordedRun(
  scheduler: SchedulerLike,
  events$: Observable<AgentEvent>,
  cancellation: Cancellation,
  handle: InterruptHandle = 'records',
): RecordedRun {
  const interrupts: RecordedRun['interrupts'] = [];
  const aborts: number[] = [];
  const run$ = createRun(cancellation, (signal) => {
    signal.addEventListener('abort', () => aborts.push(scheduler.now()));
    if (handle === 'none') return { events: events$ };
    return {
      events: events$,
      interrupt: (reason) => {
        interrupts.push({ reason, frame: scheduler.now() });
        if (handle === 'throws') throw new Error('interrupt failed');
      },
    };
  });
  return { run$, interrupts, aborts };
}
