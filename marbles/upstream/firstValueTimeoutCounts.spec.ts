import { describe, it } from 'vitest';
import { firstValueTimeout } from '../../src/upstream/firstValueTimeout.js';
import { marbles } from '../support/marbles.js';

const late = () => new Error('no first value in time');

describe('firstValueTimeout with counts', () => {
  it('passes values that do not count, and still fails at ms without one that does', marbles((m) => {
    const source$ =  m.cold('-r----a-|');
    const sourceSubs =      '^--!';
    const expected =        '-r-#';

    m.expect(source$.pipe(firstValueTimeout(3, late, m.scheduler, (value) => value !== 'r'))).toBeObservable(expected, undefined, late());
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));

  it('cancels the timer at the first value that counts', marbles((m) => {
    const source$ =  m.cold('-r-a-----b-|');
    const expected =        '-r-a-----b-|';

    m.expect(source$.pipe(firstValueTimeout(3, late, m.scheduler, (value) => value !== 'r'))).toBeObservable(expected);
  }));
});
