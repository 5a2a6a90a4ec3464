import {
  asyncScheduler,
  Observable,
  type MonoTypeOperatorFunction,
  type Observer,
  type SchedulerAction,
  type SchedulerLike,
  type Subscriber,
  type Subscription,
} from 'rxjs';

interface TimeOut {
  readonly subscriber: Subscriber<unknown>;
  readonly createError: () => Error;
}

// A function of the action's state, not a closure per model call.
function timeOut(this: SchedulerAction<TimeOut>, state?: TimeOut): void {
  state!.subscriber.error(state!.createError());
}

/** The state of one `firstValueTimeout` subscription: an object, not closures, for every model call. */
class FirstValueWatch<T> implements Observer<T> {
  seen = false;
  timer: Subscription | undefined;

  constructor(
    private readonly subscriber: Subscriber<T>,
    private readonly counts: (value: T) => boolean,
  ) {}

  next(value: T): void {
    if (!this.seen && this.counts(value)) {
      this.seen = true;
      // Let go of it too: the action and its state would otherwise live as long as the call.
      this.timer?.unsubscribe();
      this.timer = undefined;
    }
    this.subscriber.next(value);
  }

  error(error: unknown): void {
    this.subscriber.error(error);
  }

  complete(): void {
    this.subscriber.complete();
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
  return (source$) =>
    new Observable<T>((subscriber) => {
      const watch = new FirstValueWatch(subscriber, counts);
      const subscription = source$.subscribe(watch);
      if (!watch.seen && !subscriber.closed) watch.timer = scheduler.schedule(timeOut, ms, { subscriber, createError });
      return () => {
        watch.timer?.unsubscribe();
        subscription.unsubscribe();
      };
    });
}
