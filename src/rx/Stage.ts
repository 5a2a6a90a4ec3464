import type { Observable, Subscriber } from 'rxjs';
import { OwnSubscriber } from './OwnSubscriber.js';

/**
 * A per-delta stage of an operator chain: its own subscriber to its source, handing what it makes
 * to `destination`, the subscriber of the Observable its operator returns. Every stage of rxgate
 * that each delta of an open stream goes through is one of these, an object with the stream's
 * state in its fields, where public operators hold a subscriber and closures each: a value then
 * crosses into the stage by a direct call that V8 can inline, not by a SafeSubscriber's one call
 * into every stage's class, which costs a value through 16 stages about six times as much
 * (BENCHMARKS, "Stages that are their own subscribers"; `npx tsx bench/hopCost.ts`).
 *
 * An error and a completion go on to `destination` unless a subclass says otherwise. The operator
 * returns `new Observable((destination) => new MyStage(destination, …).subscribeTo(source$))`: the
 * stage is the teardown of its own subscription, so the destination's unsubscription reaches the
 * source. A source may end the stage, or reach past it and end the destination, while it is still
 * being subscribed to (a synchronous one); what must wait until the subscription is in place (a
 * timer, or an end that tears the source down first) goes in `onSubscribed`, which runs once
 * `subscribe` has returned, and only if the destination is still open.
 *
 * @example
 * class Doubler extends Stage<number> {
 *   protected onNext(value: number): void {
 *     this.destination.next(value * 2);
 *   }
 * }
 * const doubled = (): MonoTypeOperatorFunction<number> => (source$) =>
 *   new Observable((destination) => new Doubler(destination).subscribeTo(source$));
 */
export abstract class Stage<In, Out = In> extends OwnSubscriber<In> {
  /** Whether `subscribe` has returned: a stage that must end its source waits for it before that. */
  protected subscribed = false;

  constructor(protected readonly destination: Subscriber<Out>) {
    super();
  }

  /** Subscribes the stage to `source$` and returns it, the teardown of its own subscription. */
  subscribeTo(source$: Observable<In>): this {
    source$.subscribe(this);
    this.subscribed = true;
    if (!this.destination.closed) this.onSubscribed();
    return this;
  }

  /** Runs once the stage's subscription to its source is in place, if its destination is still open. Default: nothing. */
  protected onSubscribed(): void {}

  protected onError(error: unknown): void {
    this.destination.error(error);
  }

  protected onComplete(): void {
    this.destination.complete();
  }
}
