import type { MonoTypeOperatorFunction, SchedulerLike } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { Cancellation } from '../agent/cancellation.js';
import type { ChatCompletionChunk } from './chatCompletionChunk.js';

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

/** Makes the operator one response's Chat Completions chunks pass through, before serialisation. */
export type ChunkOperator = (context: PipelineContext) => MonoTypeOperatorFunction<ChatCompletionChunk>;

/**
 * The extension point: operators a server applies to every response, in order. Each entry is a
 * factory, called once per request with that request's context.
 */
export interface PipelineOperators {
  readonly events?: readonly EventOperator[];
  readonly chunks?: readonly ChunkOperator[];
}
