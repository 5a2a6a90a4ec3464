import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import { DONE_FRAME } from './done.js';
import { toErrorFrame } from './toErrorFrame.js';
import { Stage } from '../rx/Stage.js';

/** Passes frames on and ends the stream the chat way, for every open stream. */
class ChatStreamEnder extends Stage<string> {
  protected onNext(frame: string): void {
    this.destination.next(frame);
  }

  protected override onError(error: unknown): void {
    let frame: string;
    // As in `catchError`: an error frame that cannot be made fails the stream with that error.
    try {
      frame = toErrorFrame(error);
    } catch (failure) {
      this.destination.error(failure);
      return;
    }
    this.destination.next(frame);
    this.destination.complete();
  }

  protected override onComplete(): void {
    this.destination.next(DONE_FRAME);
    this.destination.complete();
  }
}

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
  return (frames$) => new Observable<string>((destination) => new ChatStreamEnder(destination).subscribeTo(frames$));
}
