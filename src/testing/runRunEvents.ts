import { takeUntil, tap, type Observable } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import type { AgentEvent } from '../agent/agentEvent.js';
import { Cancellation } from '../agent/cancellation.js';
import { InterruptReason } from '../agent/interruptReason.js';
import type { PipelineOperators } from '../http/pipelineOperators.js';
import { applyOperators } from '../pipeline/applyOperators.js';
import type { PipelineContext } from '../pipeline/pipelineContext.js';
import type { RunEvent } from '../runs/runEvent.js';
import { toRunEvents } from '../runs/toRunEvents.js';
import type { PipelineUnderTest } from './PipelineUnderTest.js';
import { recordedRun, type InterruptHandle } from './recordedRun.js';

export interface RunEventsScript {
  /** What the agent emits. */
  readonly events$: Observable<AgentEvent>;
  /** When the run is stopped (`POST /v1/runs/{id}/stop`, shutdown): a run outlives the clients that follow it. */
  readonly stop$: Observable<unknown>;
  /** Default: `records`. */
  readonly interruptHandle?: InterruptHandle;
  /** User operators (`events`, `runEvents`), instantiated with the run's context as the server instantiates them. */
  readonly operators?: PipelineOperators;
}

/**
 * A run's events as the Runs API makes them, in virtual time: the user's `events` operators, the
 * run encoder, the user's `runEvents` operators, in the order `startRun` applies them (the log and
 * the store around them left out), ended by a stop that names its reason and unsubscribes the run,
 * as `DetachedRuns` stops one.
 *
 * @example
 * testScheduler.run(({ cold, hot, expectObservable }) => {
 *   const { output$, interrupts } = runRunEvents(testScheduler, { events$: cold('-a-b-c|', EVENTS), stop$: hot('---x') });
 *   expectObservable(output$).toBe('-A-|', RUN_EVENTS);
 * });
 */
export function runRunEvents(scheduler: TestScheduler, script: RunEventsScript): PipelineUnderTest<RunEvent> {
  const cancellation = new Cancellation();
  const { run$, interrupts, aborts } = recordedRun(scheduler, script.events$, cancellation, script.interruptHandle);
  const context: PipelineContext = { cancellation, scheduler, model: 'rxgate-agent' };
  const output$ = run$.pipe(
    applyOperators(script.operators?.events, context),
    toRunEvents(),
    applyOperators(script.operators?.runEvents, context),
    takeUntil(script.stop$.pipe(tap(() => cancellation.cancelWith(InterruptReason.stopRequested)))),
  );
  return { output$, interrupts, aborts };
}
