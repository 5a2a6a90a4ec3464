import { Subscription, type Observer } from 'rxjs';

/**
 * An Observer that is also a Subscription, which RxJS's `subscribe` takes as the subscriber it is,
 * where it wraps a plain Observer object in a SafeSubscriber and a ConsumerObserver. Per-delta
 * stages extend `Stage`, which builds on it (and says why); a chain's last subscriber, which hands
 * nothing on (the SSE response), extends this.
 *
 * It keeps the promises a SafeSubscriber would: once its source has ended it (or it was
 * unsubscribed), nothing more reaches `onNext`, `onError` or `onComplete`, even from inside one of
 * them; `error` and `complete` unsubscribe it once handled, which tears its source down
 * (`source$.subscribe(stage)` adds the source's teardown to the stage). A subclass that holds more
 * (a timer) releases it in an override of `unsubscribe` that calls this one.
 */
export abstract class OwnSubscriber<T> extends Subscription implements Observer<T> {
  private stopped = false;

  next(value: T): void {
    if (!this.stopped) this.onNext(value);
  }

  error(error: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    try {
      this.onError(error);
    } finally {
      this.unsubscribe();
    }
  }

  complete(): void {
    if (this.stopped) return;
    this.stopped = true;
    try {
      this.onComplete();
    } finally {
      this.unsubscribe();
    }
  }

  override unsubscribe(): void {
    this.stopped = true;
    super.unsubscribe();
  }

  protected abstract onNext(value: T): void;
  protected abstract onError(error: unknown): void;
  protected abstract onComplete(): void;
}
