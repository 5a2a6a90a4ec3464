import { Subscription, type Observer } from 'rxjs';

/**
 * A stage of an operator chain that is its own subscriber to its source: an Observer that is also
 * a Subscription, which RxJS's `subscribe` takes as the subscriber it is, where it wraps a plain
 * Observer object in a SafeSubscriber and a ConsumerObserver. A value then crosses into the stage
 * by a direct call from the stage before it, a call site that sees one class and that V8 can
 * inline, not by the ConsumerObserver's one call into every stage's class (BENCHMARKS, figure 2),
 * and a stream holds two objects fewer a stage.
 *
 * It keeps the promises a SafeSubscriber would: once its source has ended it (or it was
 * unsubscribed), nothing more reaches `onNext`, `onError` or `onComplete`, even from inside one of
 * them; `error` and `complete` unsubscribe it once handled, which tears its source down
 * (`source$.subscribe(stage)` adds the source's teardown to the stage). A subclass that holds more
 * (a timer) releases it in an override of `unsubscribe` that calls this one. Handed to its
 * downstream as the teardown of its own subscription, it is unsubscribed with it.
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
