import { describe, it } from 'vitest';
import { detectOverload } from '../../src/health/detectOverload.js';
import { marbles } from '../support/marbles.js';

const delays = { a: 10, b: 80, c: 10, d: 90, e: 10, o: 51, u: 50 };
const states = { t: true, f: false };

describe('detectOverload', () => {
  it('is overloaded at the first sample over the limit, and again quiet once the samples stayed under it for holdMs', marbles((m) => {
    const source$ =  m.cold('-a-b-c-d-e------|', delays);
    const sourceSubs =      '^---------------!';
    const expected =        '---t--------f---|';

    m.expect(source$.pipe(detectOverload(50, 3, m.scheduler))).toBeObservable(expected, states);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));

  it('says so once at the start, after holdMs, when the loop is never late', marbles((m) => {
    const source$ =  m.cold('-a-a-a-a-|', delays);
    const expected =        '----f----|';

    m.expect(source$.pipe(detectOverload(50, 3, m.scheduler))).toBeObservable(expected, states);
  }));

  it('counts a delay of exactly the limit as not over it', marbles((m) => {
    const source$ =  m.cold('-u-o-u----|', delays);
    const expected =        '---t----f-|';

    m.expect(source$.pipe(detectOverload(50, 3, m.scheduler))).toBeObservable(expected, states);
  }));

  it('stops its hold timer when unsubscribed', marbles((m) => {
    const source$ =  m.cold('-b-c---', delays);
    const sourceSubs =      '^--!';
    const expected =        '-t--';

    m.expect(source$.pipe(detectOverload(50, 3, m.scheduler)), '^--!').toBeObservable(expected, states);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));
});
