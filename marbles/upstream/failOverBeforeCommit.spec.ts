import { describe, it } from 'vitest';
import { failOverBeforeCommit } from '../../src/agent/upstream/failOverBeforeCommit.js';
import { marbles } from '../support/marbles.js';

const commits = (value: string) => value === 'c';

describe('failOverBeforeCommit', () => {
  it('hands a failure before the commit point to recover, whose stream takes the failed one\'s place', marbles((m) => {
    const source$ =  m.cold('-r-#');
    const sourceSubs =      '^--!';
    const recover$ = m.cold(   '--r-c-|');
    const recoverSubs =     '---^-----!';
    const expected =        '-r---r-c-|';

    m.expect(source$.pipe(failOverBeforeCommit(commits, () => recover$))).toBeObservable(expected);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.expect(recover$).toHaveSubscriptions(recoverSubs);
  }));

  it('lets a failure after the commit point through as it is, and never recovers', marbles((m) => {
    const source$ =  m.cold('-r-c-#');
    const recover$ = m.cold('-c-|');
    const expected =        '-r-c-#';

    m.expect(source$.pipe(failOverBeforeCommit(commits, () => recover$))).toBeObservable(expected);
    m.expect(recover$).toHaveSubscriptions([]);
  }));

  it('starts over for every subscription: one that committed does not bind the next', marbles((m) => {
    const source$ =  m.cold('-c-#');
    const recover$ = m.cold('|');
    const expected =        '-c-#';
    const piped$ = source$.pipe(failOverBeforeCommit(commits, () => recover$));

    m.expect(piped$).toBeObservable(expected);
    m.expect(piped$).toBeObservable(expected);
  }));
});
