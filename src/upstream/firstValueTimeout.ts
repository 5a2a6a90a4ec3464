import { asyncScheduler, Observable, type MonoTypeOperatorFunction, type SchedulerLike, type Subscriber, type Subscription } from 'rxjs';
import { OwnSubscriber } from '../rx/OwnSubscriber.js';

// Scheduled with the watch as its state: one function for every model call, not a closure each.
const timeOutOf = (watch: FirstValueWatch<unknown>): void => watch.timeOut();

/** One `firstValueTimeout` subscription: an object, not closures, for every model call. It is its own teardown. */
class FirstValueWatch<T> extends OwnSubscriber<T> {
  private seen = false;
  private timer: Subscription | undefined;

  constructor(
    private readonly subscriber: Subscriber<T>,
    private readonly createError: () => Error,
    private readonly counts: (value: T) => boolean,
  ) {
    super();
  }

  start(source$: Observable<T>, ms: number, scheduler: SchedulerLike): this {
    source$.subscribe(this);
    if (!this.seen && !this.subscriber.closed) this.timer = scheduler.schedule(timeOutOf, ms, this as FirstValueWatch<unknown>);
    return this;
  }

  protected onNext(value: T): void {
    if (!this.seen && this.counts(value)) {
      this.seen = true;
      // Let go of it too: the action would otherwise live as long as the call.
      this.timer?.unsubscribe();
      this.timer = undefined;
    }
    this.subscriber.next(value);
  }

  protected onError(error: unknown): void {
    this.subscriber.error(error);
  }

  protected onComplete(): void {
    this.subscriber.complete();
  }

  timeOut(): void {
    this.error(this.createError());
  }

  override unsubscribe(): void {
    this.timer?.unsubscribe();
    super.unsubscribe();
  }
}

/**
 * Fails with `createError()` if the source has sent no value `ms` after subscription (the source
 * is unsubscribed with it); the first value cancels the timer, and everything passes through
 * untouched. With `counts`, only a value it accepts cancels the timer (the others pass too: no
 * filter stage of its own). One subscriber and, until the first value, one scheduled action per model call,
 * where `timeout` held a subscriber, its own timer bookkeeping and an Observable for the error.
 *
 * ```
 * firstValueTimeout(3)
 * source:   -a----b-|        ------
 * result:   -a----b-|        ---#
 * ```
 */
export function firstValueTimeout<T>(
  ms: number,
  createError: () => Error,
  scheduler: SchedulerLike = asyncScheduler,
  counts: (value: T) => boolean = () => true,
): MonoTypeOperatorFunction<T> {
  return (source$) => new Observable<T>((subscriber) => new FirstValueWatch(subscriber, createError, counts).start(source$, ms, scheduler));
}
