import { identity, type MonoTypeOperatorFunction, type Observable } from 'rxjs';

/**
 * Composes operators, first to last, into one; an empty list is the identity.
 *
 * ```
 * composeOperators([f, g])   ===   (source$) => source$.pipe(f, g)
 * ```
 *
 * @example
 * const limited = composeOperators([maxOutput({ maxChars, cancellation }), coalesce({ windowMs: 50 })]);
 */
export function composeOperators<T>(operators: readonly MonoTypeOperatorFunction<T>[] = []): MonoTypeOperatorFunction<T> {
  if (operators.length === 0) return identity;
  return (source$) => operators.reduce<Observable<T>>((result$, operator) => result$.pipe(operator), source$);
}
