import type { MonoTypeOperatorFunction, SchedulerLike } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { Cancellation } from '../agent/cancellation.js';

/** What a user operator knows about the one response it is instantiated for. */
export interface PipelineContext {
  /** The request's cancellation: name a reason here before ending a run early. */
  readonly cancellation: Cancellation;
  /** The scheduler to time things with; a `TestScheduler` in marble specs. */
  readonly scheduler: SchedulerLike;
  /** The model the client asked for. */
  readonly model: string;
}

/** Makes the operator one response's agent events pass through, before any protocol encoder. */
export type EventOperator = (context: PipelineContext) => MonoTypeOperatorFunction<AgentEvent>;
