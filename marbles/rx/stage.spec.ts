import { Observable, of, type MonoTypeOperatorFunction, type SchedulerLike, type Subscriber } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Stage } from '../../src/rx/Stage.js';
import { marbles } from '../support/marbles.js';

class Doubler extends Stage<number> {
  readonly seen: number[] = [];
  subscribedCalls = 0;

  protected onNext(value: number): void {
    this.seen.push(value);
    this.destination.next(value * 2);
  }

  protected override onSubscribed(): void {
    this.subscribedCalls++;
  }
}

const doubled = (): MonoTypeOperatorFunction<number> => (source$) =>
  new Observable<number>((destination) => new Doubler(destination).subscribeTo(source$));

/** Ends its source at the first value, as a cap does: the source torn down before the end goes on. */
class FirstOnly extends Stage<number> {
  private first: number | undefined;

  constructor(
    destination: Subscriber<number>,
    private readonly log: string[],
  ) {
    super(destination);
  }

  protected onNext(value: number): void {
    if (this.first !== undefined) return;
    this.first = value;
    if (this.subscribed) this.end();
  }

  protected override onSubscribed(): void {
    if (this.first !== undefined) this.end();
  }

  private end(): void {
    this.unsubscribe();
    this.log.push('ended');
    this.destination.next(this.first ?? 0);
    this.destination.complete();
  }
}

const NO_VALUE = new Error('no value');

/** Fails if no value came `ms` after subscription: a timer started once the subscription is in place. */
class Deadline extends Stage<number> {
  private timer: { unsubscribe(): void } | undefined;

  constructor(
    destination: Subscriber<number>,
    private readonly ms: number,
    private readonly scheduler: SchedulerLike,
  ) {
    super(destination);
  }

  protected onNext(value: number): void {
    this.timer?.unsubscribe();
    this.destination.next(value);
  }

  protected override onSubscribed(): void {
    this.timer = this.scheduler.schedule(() => this.error(NO_VALUE), this.ms);
  }

  override unsubscribe(): void {
    this.timer?.unsubscribe();
    super.unsubscribe();
  }
}

const VALUES = { a: 1, b: 2, x: 2, y: 4 };

describe('Stage', () => {
  it('passes values on, and its end: the completion by default, the source torn down at it', marbles((m) => {
    const source$ =  m.cold('-a-b-|', VALUES);
    const sourceSubs =      '^----!';
    const expected =        '-x-y-|';

    m.expect(source$.pipe(doubled())).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));

  it('passes an error on by default', marbles((m) => {
    const source$ =  m.cold('-a-#', VALUES);
    const sourceSubs =      '^--!';
    const expected =        '-x-#';

    m.expect(source$.pipe(doubled())).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));

  it('is unsubscribed with its destination, and its source with it', marbles((m) => {
    const source$ =  m.cold('-a-b-|', VALUES);
    const sourceSubs =      '^--!';

    m.expect(source$.pipe(doubled()), '^--!').toBeObservable('-x-', VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));

  it('starts what waits for its subscription (a timer) once the subscription is in place', marbles((m) => {
    const silent$ =  m.cold('------|');
    const silentSubs =      '^--!';
    const talking$ = m.cold('-a----|', VALUES);
    const deadline = (): MonoTypeOperatorFunction<number> => (source$) =>
      new Observable<number>((destination) => new Deadline(destination, 3, m.scheduler).subscribeTo(source$));

    m.expect(silent$.pipe(deadline())).toBeObservable('---#', {}, NO_VALUE);
    m.expect(silent$).toHaveSubscriptions(silentSubs);
    m.expect(talking$.pipe(deadline())).toBeObservable('-a----|', VALUES);
  }));

  it('is the subscriber RxJS hands its source, and takes nothing once it has ended', () => {
    let given: Subscriber<number> | undefined;
    const unruly$ = new Observable<number>((subscriber) => {
      given = subscriber;
      subscriber.next(1);
      subscriber.complete();
      subscriber.next(2);
      subscriber.error(new Error('after the end'));
    });
    const received: number[] = [];
    const destination = { next: (value: number) => received.push(value), error: () => received.push(-1), complete: () => received.push(0) };
    const stage = new Doubler(destination as unknown as Subscriber<number>);

    expect(unruly$.subscribe(stage)).toBe(stage);
    expect(given).toBe(stage);
    expect(stage.seen).toEqual([1]);
    expect(received).toEqual([2, 0]);
    expect(stage.closed).toBe(true);
  });

  it('does not run onSubscribed for a destination its source ended while being subscribed to', () => {
    let stage: Doubler | undefined;
    const received: number[] = [];
    new Observable<number>((destination) => (stage = new Doubler(destination)).subscribeTo(of(1, 2))).subscribe((value) =>
      received.push(value),
    );

    expect(received).toEqual([2, 4]);
    expect(stage?.subscribedCalls).toBe(0);
  });

  it('lets a source that reached its end while being subscribed to be torn down before the end goes on', () => {
    const log: string[] = [];
    const synchronous$ = new Observable<number>((subscriber) => {
      subscriber.next(7);
      subscriber.next(8);
      return () => log.push('source torn down');
    });
    const received: number[] = [];
    new Observable<number>((destination) => new FirstOnly(destination, log).subscribeTo(synchronous$)).subscribe({
      next: (value) => received.push(value),
      complete: () => log.push('complete'),
    });

    expect(received).toEqual([7]);
    expect(log).toEqual(['source torn down', 'ended', 'complete']);
  });
});
