import { Observable, type OperatorFunction } from 'rxjs';

/**
 * Serialises each of a protocol's messages as its frame, and tells `onFailure` of a message the
 * protocol calls a failure and of an error, which then goes on (for the protocol's end frames to
 * turn into its failure frame). One subscriber where a tap and a map held two, for every frame
 * of every open stream.
 *
 * ```
 * source:   -a-f-#        f is a failure message
 * result:   -A-F-#        onFailure() at f, onFailure(error) at #
 * ```
 */
export function toFrames<Out>(
  frame: (message: Out) => string,
  isFailure?: (message: Out) => boolean,
  onFailure?: (error?: unknown) => void,
): OperatorFunction<Out, string> {
  return (messages$) =>
    new Observable<string>((subscriber) => {
      const fail = (error: unknown) => {
        onFailure?.(error);
        subscriber.error(error);
      };
      return messages$.subscribe({
        next: (message) => {
          let text: string;
          // A throwing serialiser fails the stream, as it would in `map`, instead of escaping the subscriber.
          try {
            if (onFailure && isFailure?.(message)) onFailure();
            text = frame(message);
          } catch (error) {
            fail(error);
            return;
          }
          subscriber.next(text);
        },
        error: fail,
        complete: () => subscriber.complete(),
      });
    });
}
