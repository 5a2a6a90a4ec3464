import { Observable, type MonoTypeOperatorFunction, type Subscriber } from 'rxjs';
import { DONE_FRAME } from './done.js';
import { toErrorFrame } from './toErrorFrame.js';
import { OwnSubscriber } from '../rx/OwnSubscriber.js';

/** Passes frames on and ends the stream the chat way; an object, not three closures, for every open stream. */
class ChatStreamEnder extends OwnSubscriber<string> {
  constructor(private readonly subscriber: Subscriber<string>) {
    super();
  }

  protected onNext(frame: string): void {
    this.subscriber.next(frame);
  }

  protected onError(error: unknown): void {
    let frame: string;
    // As in `catchError`: an error frame that cannot be made fails the stream with that error.
    try {
      frame = toErrorFrame(error);
    } catch (failure) {
      this.subscriber.error(failure);
      return;
    }
    this.subscriber.next(frame);
    this.subscriber.complete();
  }

  protected onComplete(): void {
    this.subscriber.next(DONE_FRAME);
    this.subscriber.complete();
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
  return (frames$) => new Observable<string>((subscriber) => frames$.subscribe(new ChatStreamEnder(subscriber)));
}
