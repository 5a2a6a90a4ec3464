import { catchError, defer, tap, throwError, type MonoTypeOperatorFunction, type Observable } from 'rxjs';

/**
 * The commit point: until a value that `commits` passes, an error is handed to `recover$`, whose
 * stream takes the failed one's place; after it, the error goes on as it is. A client that has
 * seen content is never given a second answer glued to the first.
 *
 * ```
 * source:    --r--#                 r = a value that does not commit (a role chunk), c = one that does
 * recover:        ---r--c--|
 * result:    --r-----r--c--|
 *
 * source:    --r--c--#
 * result:    --r--c--#
 * ```
 */
export function failOverBeforeCommit<T>(
  commits: (value: T) => boolean,
  recover$: (error: unknown) => Observable<T>,
): MonoTypeOperatorFunction<T> {
  return (source$) =>
    defer(() => {
      let committed = false;
      return source$.pipe(
        tap((value) => {
          if (!committed) committed = commits(value);
        }),
        catchError((error: unknown) => (committed ? throwError(() => error) : recover$(error))),
      );
    });
}
