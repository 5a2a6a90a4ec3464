import { Observable, type MonoTypeOperatorFunction } from 'rxjs';

export const DONE_FRAME = 'data: [DONE]\n\n';

/**
 * Appends the Chat Completions terminator, only after a clean completion: an error skips it.
 * One subscriber, held by every open stream: `endWith` is a `concat`, which held three.
 *
 * ```
 * source:   --a--|        --a--#
 * result:   --a--(D|)     --a--#
 * ```
 */
export function done(): MonoTypeOperatorFunction<string> {
  return (frames$) =>
    new Observable<string>((subscriber) =>
      frames$.subscribe({
        next: (frame) => subscriber.next(frame),
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          subscriber.next(DONE_FRAME);
          subscriber.complete();
        },
      }),
    );
}
