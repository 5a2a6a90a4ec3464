import type { MonoTypeOperatorFunction } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import { applyOperators } from './applyOperators.js';
import type { EventOperator, PipelineContext } from './pipelineContext.js';

/**
 * The user operators one API applies to each of its streams, in order: `events` over the agent's
 * events, before the API's encoder; `chunks` over the API's own messages, after it. Each entry is
 * a factory, called once per request with that request's context.
 */
export interface ProtocolOperators<Chunk> {
  readonly events?: readonly EventOperator[];
  readonly chunks?: readonly ((context: PipelineContext) => MonoTypeOperatorFunction<Chunk>)[];
}

/** One run's user operators, each list instantiated with its context and composed (an empty list is the identity). */
export function instantiateOperators<Chunk>(
  operators: ProtocolOperators<Chunk>,
  context: PipelineContext,
): { readonly events: MonoTypeOperatorFunction<AgentEvent>; readonly chunks: MonoTypeOperatorFunction<Chunk> } {
  return { events: applyOperators(operators.events, context), chunks: applyOperators(operators.chunks, context) };
}
