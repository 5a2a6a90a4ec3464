import { describe, expect, it } from 'vitest';
import { EMPTY } from 'rxjs';
import { followWith } from '../src/agent/llm/followWith.js';
import { marbles } from './support/marbles.js';

describe('followWith', () => {
  it('continues with what next returns once the source completes', marbles((m) => {
    const source$ =  m.cold('-a-b-|');
    const sourceSubs =      '^----!';
    const next$ =    m.cold(     '-c-|');
    const nextSubs =        '-----^--!';
    const expected =        '-a-b--c-|';

    m.expect(source$.pipe(followWith(() => next$))).toBeObservable(expected);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.expect(next$).toHaveSubscriptions(nextSubs);
  }));

  it('calls next only at completion, after the source values', marbles((m) => {
    const source$ =  m.cold('-a-b-|');
    const expected =        '-a-b-(c|)';
    const seen: string[] = [];

    m.expect(source$.pipe(followWith(() => (seen.push('next'), ['c'])))).toBeObservable(expected);
    m.flush();
    expect(seen).toEqual(['next']);
  }));

  it('passes an error on and never calls next', marbles((m) => {
    const source$ =  m.cold('-a-#');
    const expected =        '-a-#';
    let called = false;

    m.expect(source$.pipe(followWith<string>(() => ((called = true), EMPTY)))).toBeObservable(expected);
    m.flush();
    expect(called).toBe(false);
  }));

  it('unsubscribes the continuation when the subscriber leaves', marbles((m) => {
    const source$ =  m.cold('-a-|');
    const next$ =    m.cold(   '-c-----d-|');
    const nextSubs =        '---^---!';
    const unsub =           '-------!';
    const expected =        '-a--c---';

    m.expect(source$.pipe(followWith(() => next$)), unsub).toBeObservable(expected);
    m.expect(next$).toHaveSubscriptions(nextSubs);
  }));
});
