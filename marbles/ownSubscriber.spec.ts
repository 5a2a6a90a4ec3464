import { Observable, type Subscriber } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { OwnSubscriber } from '../src/rx/OwnSubscriber.js';
import { marbles } from './support/marbles.js';

class Doubler extends OwnSubscriber<number> {
  readonly seen: number[] = [];

  constructor(private readonly downstream: Subscriber<number>) {
    super();
  }

  protected onNext(value: number): void {
    this.seen.push(value);
    this.downstream.next(value * 2);
  }

  protected onError(error: unknown): void {
    this.downstream.error(error);
  }

  protected onComplete(): void {
    this.downstream.complete();
  }
}

const doubled$ = (source$: Observable<number>): Observable<number> =>
  new Observable<number>((subscriber) => source$.subscribe(new Doubler(subscriber)));

const VALUES = { a: 1, b: 2, x: 2, y: 4 };

describe('OwnSubscriber', () => {
  it('passes values on and tears its source down when it ends', marbles((m) => {
    const source$ =  m.cold('-a-b-|', VALUES);
    const sourceSubs =      '^----!';
    const expected =        '-x-y-|';

    m.expect(doubled$(source$)).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));

  it('is unsubscribed with its downstream, and its source with it', marbles((m) => {
    const source$ =  m.cold('-a-b-|', VALUES);
    const sourceSubs =      '^--!';

    m.expect(doubled$(source$), '^--!').toBeObservable('-x-', VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
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
    const downstream = { next: (value: number) => received.push(value), error: () => received.push(-1), complete: () => received.push(0) };
    const stage = new Doubler(downstream as unknown as Subscriber<number>);

    expect(unruly$.subscribe(stage)).toBe(stage);
    expect(given).toBe(stage);
    expect(stage.seen).toEqual([1]);
    expect(received).toEqual([2, 0]);
    expect(stage.closed).toBe(true);
  });
});
