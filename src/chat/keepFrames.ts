import {
  catchError,
  concat,
  concatMap,
  defer,
  EMPTY,
  from,
  ignoreElements,
  tap,
  throwError,
  toArray,
  type MonoTypeOperatorFunction,
  type Observable,
  type ObservableInput,
} from 'rxjs';

/** Where the frames of an answer under an `Idempotency-Key` are kept. */
export interface FrameKeeper {
  /** Told each frame as it passes, in order, the end's frames too. */
  frame(frame: string): void;
  /** Told once the last frame was: the answer is whole. The end's frames go on once what it returns has settled. */
  whole(): ObservableInput<unknown>;
}

/**
 * A protocol's `end` (the frames it adds once the source completes or fails: `[DONE]`, the error
 * frame), with every frame handed to `keeper` as it passes, and the end's frames held until
 * `keeper.whole()` has settled: a client that has read the end of an answer under an
 * `Idempotency-Key` finds it kept when it retries.
 *
 * ```
 * source:   -a-b-|            -a-#
 * whole():       ---|            ---|
 * result:   -a-b----(D|)      -a----(E|)     D = [DONE], E = the error frame
 * ```
 *
 * @example
 * frames$.pipe(keepFrames(endChatStream(), { frame: (frame) => log.append('frame', frame), whole: () => keep() }))
 */
export function keepFrames(end: MonoTypeOperatorFunction<string>, keeper: FrameKeeper): MonoTypeOperatorFunction<string> {
  return (frames$) =>
    defer(() => {
      // How the source ended, for `end` to make its frames of.
      let ending$: Observable<string> = EMPTY;
      return concat(
        frames$.pipe(
          tap((frame) => keeper.frame(frame)),
          catchError((error: unknown) => {
            ending$ = throwError(() => error);
            return EMPTY;
          }),
        ),
        defer(() =>
          ending$.pipe(
            end,
            tap((frame) => keeper.frame(frame)),
            toArray(),
            // Sent whether or not the store kept them: the client is owed its answer either way.
            concatMap((last) =>
              concat(
                from(keeper.whole()).pipe(
                  ignoreElements(),
                  catchError(() => EMPTY),
                ),
                from(last),
              ),
            ),
          ),
        ),
      );
    });
}
