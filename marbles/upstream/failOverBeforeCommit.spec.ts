import { Observable, Subject, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { failOverBeforeCommit } from '../../src/upstream/failOverBeforeCommit.js';
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

  it('tears the failed stream down before it subscribes to the recovery, as catchError does', () => {
    const log: string[] = [];
    const fail$ = new Subject<void>();
    const first$ = new Observable<string>((subscriber) => {
      log.push('first start');
      const failing = fail$.subscribe(() => subscriber.error(new Error('first')));
      return () => {
        failing.unsubscribe();
        log.push('first teardown');
      };
    });
    const second$ = new Observable<string>((subscriber) => {
      log.push('second start');
      subscriber.complete();
    });
    first$.pipe(failOverBeforeCommit(commits, () => second$)).subscribe({ complete: () => log.push('done') });
    fail$.next();
    expect(log).toEqual(['first start', 'first teardown', 'second start', 'done']);
  });

  it('recovers from a failure that comes while the failed stream is being subscribed to, once that is over', () => {
    const log: string[] = [];
    const recover$ = new Observable<string>((subscriber) => {
      log.push('recovery start');
      subscriber.complete();
    });
    throwError(() => new Error('at once'))
      .pipe(failOverBeforeCommit(commits, () => recover$))
      .subscribe({ complete: () => log.push('done') });
    expect(log).toEqual(['recovery start', 'done']);
  });
});
