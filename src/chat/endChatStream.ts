import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import { DONE_FRAME } from './done.js';
import { toErrorFrame } from './toErrorFrame.js';

/**
 * `done()` then `errorFrame()` in one subscriber, held by every open chat stream: `[DONE]` after a
 * clean completion; after a failure, one error frame and a clean completion, and no `[DONE]`.
 *
 * ```
 * source:   --a--|        --a--#
 * result:   --a--(D|)     --a--(E|)
 * ```
 */
export function endChatStream(): MonoTypeOperatorFunction<string> {
  return (frames$) =>
    new Observable<string>((subscriber) =>
      frames$.subscribe({
        next: (frame) => subscriber.next(frame),
        error: (error: unknown) => {
          let frame: string;
          // As in `catchError`: an error frame that cannot be made fails the stream with that error.
          try {
            frame = toErrorFrame(error);
          } catch (failure) {
            subscriber.error(failure);
            return;
          }
          subscriber.next(frame);
          subscriber.complete();
        },
        complete: () => {
          subscriber.next(DONE_FRAME);
          subscriber.complete();
        },
      }),
    );
}
