import type { MonoTypeOperatorFunction } from 'rxjs';
import { composeOperators } from './composeOperators.js';
import type { PipelineContext } from './pipelineContext.js';

/**
 * Instantiates a list of operator factories for one request and composes them, first to last,
 * into one operator; an empty or missing list is the identity.
 *
 * ```
 * applyOperators([f, g], context)   ===   (source$) => source$.pipe(f(context), g(context))
 * ```
 *
 * @example
 * const events = applyOperators(operators.events, { cancellation, scheduler, model });
 * ssePipeline(run$, chatProtocol(meta), { ...options, events });
 */
export function applyOperators<T>(
  list: readonly ((context: PipelineContext) => MonoTypeOperatorFunction<T>)[] | undefined,
  context: PipelineContext,
): MonoTypeOperatorFunction<T> {
  return composeOperators((list ?? []).map((factory) => factory(context)));
}
