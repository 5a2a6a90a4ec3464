import { describe, expect, it } from 'vitest';
import { firstValueTimeout } from '../../src/upstream/firstValueTimeout.js';
import { marbles } from '../support/marbles.js';

const late = () => new Error('no first value in time');

describe('firstValueTimeout', () => {
  it('lets a source whose first value comes in time through untouched, however long it then takes', marbles((m) => {
    const source$ =  m.cold('-a----b-|');
    const sourceSubs =      '^-------!';
    const expected =        '-a----b-|';

    m.expect(source$.pipe(firstValueTimeout(3, late, m.scheduler))).toBeObservable(expected);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));

  it('fails at ms with the error made then, unsubscribing the source', marbles((m) => {
    const source$ =  m.cold('-----a-|');
    const sourceSubs =      '^--!';
    const expected =        '---#';

    m.expect(source$.pipe(firstValueTimeout(3, late, m.scheduler))).toBeObservable(expected, undefined, late());
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));

  it('leaves no timer behind a source that ends before its first value', marbles((m) => {
    const source$ =  m.cold('-|');
    const expected =        '-|';

    m.expect(source$.pipe(firstValueTimeout(3, late, m.scheduler))).toBeObservable(expected);
    m.flush();
    expect(m.scheduler.frame).toBe(1);
  }));
});
