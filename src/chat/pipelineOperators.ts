import type { MonoTypeOperatorFunction } from 'rxjs';
import type { EventOperator, PipelineContext } from '../pipeline/pipelineContext.js';
import type { ChatCompletionChunk } from './chatCompletionChunk.js';

/** Makes the operator one response's Chat Completions chunks pass through, before serialisation. */
export type ChunkOperator = (context: PipelineContext) => MonoTypeOperatorFunction<ChatCompletionChunk>;

/**
 * The extension point: operators a server applies to every chat completion, in order. Each entry
 * is a factory, called once per request with that request's context.
 */
export interface PipelineOperators {
  readonly events?: readonly EventOperator[];
  readonly chunks?: readonly ChunkOperator[];
}
