import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import { Stage } from '../rx/Stage.js';
import { messageErrorFrame } from './messageErrorFrame.js';

/** Passes frames on and turns a failure into the Messages `error` event, for every open stream. */
class MessageStreamEnder extends Stage<string> {
  protected onNext(frame: string): void {
    this.destination.next(frame);
  }

  protected override onError(error: unknown): void {
    let frame: string;
    // As in `catchError`: an error frame that cannot be made fails the stream with that error.
    try {
      frame = messageErrorFrame(error);
    } catch (failure) {
      this.destination.error(failure);
      return;
    }
    this.destination.next(frame);
    this.destination.complete();
  }
}

/**
 * Ends a Messages stream: after a failure, one `event: error` frame and a clean completion, and
 * nothing after it; a clean end adds nothing (its `message_stop` is the encoder's).
 *
 * ```
 * source:   --a--|        --a--#
 * result:   --a--|        --a--(E|)
 * ```
 */
export function endMessageStream(): MonoTypeOperatorFunction<string> {
  return (frames$) => new Observable<string>((destination) => new MessageStreamEnder(destination).subscribeTo(frames$));
}
