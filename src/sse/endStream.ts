import { Observable, type MonoTypeOperatorFunction, type Subscriber } from 'rxjs';
import { Stage } from '../rx/Stage.js';

/** Passes frames on and ends the stream a protocol's way, for every open stream. */
class StreamEnder extends Stage<string> {
  constructor(
    destination: Subscriber<string>,
    private readonly errorFrame: (error: unknown) => string,
    private readonly lastFrame: string | undefined,
  ) {
    super(destination);
  }

  protected onNext(frame: string): void {
    this.destination.next(frame);
  }

  protected override onError(error: unknown): void {
    let frame: string;
    // As in `catchError`: an error frame that cannot be made fails the stream with that error.
    try {
      frame = this.errorFrame(error);
    } catch (failure) {
      this.destination.error(failure);
      return;
    }
    this.destination.next(frame);
    this.destination.complete();
  }

  protected override onComplete(): void {
    if (this.lastFrame !== undefined) this.destination.next(this.lastFrame);
    this.destination.complete();
  }
}

/**
 * Ends a protocol's stream in one subscriber, held by every open stream: `lastFrame` (if any)
 * after a clean completion; after a failure, the error's frame and a clean completion, and no
 * `lastFrame`.
 *
 * ```
 * endStream(toErrorFrame, 'D')
 * source:   --a--|        --a--#
 * result:   --a--(D|)     --a--(E|)
 * ```
 */
export function endStream(errorFrame: (error: unknown) => string, lastFrame?: string): MonoTypeOperatorFunction<string> {
  return (frames$) => new Observable<string>((destination) => new StreamEnder(destination, errorFrame, lastFrame).subscribeTo(frames$));
}
