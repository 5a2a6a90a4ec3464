import { asyncScheduler, Observable, type MonoTypeOperatorFunction, type SchedulerLike, type Subscriber, type Subscription } from 'rxjs';
import { Stage } from '../rx/Stage.js';

// Scheduled with the watch as its state: one function for every model call.
const timeOutOf = (watch: FirstValueWatch<unknown>): void => watch.timeOut();

/** One `firstValueTimeout` subscription, for every model call. */
class FirstValueWatch<T> extends Stage<T> {
  private seen = false;
  private timer: Subscription | undefined;

  constructor(
    destination: Subscriber<T>,
    private readonly ms: number,
    private readonly scheduler: SchedulerLike,
    private readonly createError: () => Error,
    private readonly counts: (value: T) => boolean,
  ) {
    super(destination);
  }

  protected override onSubscribed(): void {
    if (!this.seen) this.timer = this.scheduler.schedule(timeOutOf, this.ms, this as FirstValueWatch<unknown>);
  }

  protected onNext(value: T): void {
    if (!this.seen && this.counts(value)) {
      this.seen = true;
      // Let go of it too: the action would otherwise live as long as the call.
      this.timer?.unsubscribe();
      this.timer = undefined;
    }
    this.destination.next(value);
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
  return (source$) =>
    new Observable<T>((destination) => new FirstValueWatch(destination, ms, scheduler, createError, counts).subscribeTo(source$));
}
