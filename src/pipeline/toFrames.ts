import { Observable, type OperatorFunction, type Subscriber } from 'rxjs';
import { Stage } from '../rx/Stage.js';

/** The state of one `toFrames` subscription, for every open stream. */
class FrameSerialiser<Out> extends Stage<Out, string> {
  constructor(
    destination: Subscriber<string>,
    private readonly frame: (message: Out) => string,
    private readonly isFailure: ((message: Out) => boolean) | undefined,
    private readonly onFailure: ((error?: unknown) => void) | undefined,
  ) {
    super(destination);
  }

  protected onNext(message: Out): void {
    let text: string;
    // A throwing serialiser fails the stream, as it would in `map`, instead of escaping the subscriber.
    try {
      if (this.onFailure && this.isFailure?.(message)) this.onFailure();
      text = this.frame(message);
    } catch (error) {
      this.error(error);
      return;
    }
    this.destination.next(text);
  }

  protected override onError(error: unknown): void {
    this.onFailure?.(error);
    this.destination.error(error);
  }
}

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
    new Observable<string>((destination) => new FrameSerialiser(destination, frame, isFailure, onFailure).subscribeTo(messages$));
}
