import { describe, expect, it } from 'vitest';
import { rateLimit } from '../../src/operators/rateLimit.js';
import { text } from '../support/chatFrames.js';
import { marbles } from '../support/marbles.js';

// At 1000 characters per second the bucket refills one character per frame.
const ONE_PER_FRAME = 1000;

const VALUES = {
  a: text('a'),
  b: text('b'),
  c: text('c'),
  e: text(''),
  w: text('abcdef'),
  x: text('abcd'),
  y: text('ab'),
  z: text('cd'),
  q: text('ef'),
  t: { type: 'tool_start', callId: 'call_1', name: 'search', arguments: '{}' },
  f: { type: 'finish', reason: 'stop' },
} as const;

describe('rateLimit', () => {
  it('sends the first delta at once and splits what exceeds the burst, at the rate', marbles((m) => {
    const source$ =  m.cold('x-----|', VALUES);
    const sourceSubs =      '^-----!';
    const expected =        'y-z---|';

    m.expect(source$.pipe(rateLimit({ charsPerSecond: ONE_PER_FRAME, burst: 2, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));

  it('keeps other events behind the text held before them', marbles((m) => {
    const source$ =  m.cold('xt----|', VALUES);
    const expected =        'y-(zt)|';

    m.expect(source$.pipe(rateLimit({ charsPerSecond: ONE_PER_FRAME, burst: 2, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
  }));

  it('refills while the source is quiet, up to the burst and no further', marbles((m) => {
    const source$ =  m.cold('y 9ms x----|', VALUES);
    const expected =        'y 9ms y-z--|';

    m.expect(source$.pipe(rateLimit({ charsPerSecond: ONE_PER_FRAME, burst: 2, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
  }));

  it('completes only after the text it holds', marbles((m) => {
    const source$ =  m.cold('w|', VALUES);
    const sourceSubs =      '^!';
    const expected =        'y-z-(q|)';

    m.expect(source$.pipe(rateLimit({ charsPerSecond: ONE_PER_FRAME, burst: 2, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));

  it('fails only after the text it holds, losing none of it', marbles((m) => {
    const source$ =  m.cold('w#', VALUES);
    const sourceSubs =      '^!';
    const expected =        'y-z-(q#)';

    m.expect(source$.pipe(rateLimit({ charsPerSecond: ONE_PER_FRAME, burst: 2, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));

  it('unsubscribes the source at the frame it is unsubscribed while holding text, leaving no timer', marbles((m) => {
    const source$ =  m.cold('w-------|', VALUES);
    const sourceSubs =      '^--!';
    const unsub =           '^--!';
    const expected =        'y-z';

    m.expect(source$.pipe(rateLimit({ charsPerSecond: ONE_PER_FRAME, burst: 2, scheduler: m.scheduler })), unsub).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.flush();

    // The piece due at frame 4 was never scheduled past the unsubscription.
    expect(m.scheduler.frame).toBe(3);
  }));

  it('with a burst of one, sends one character per interval', marbles((m) => {
    const source$ =  m.cold('(abc)|', VALUES);
    const expected =        'a-b-c|';

    m.expect(source$.pipe(rateLimit({ charsPerSecond: 500, burst: 1, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
  }));

  it('sends a delta of exactly the burst whole, and splits one a character longer', marbles((m) => {
    const exactly$ = m.cold('y|', VALUES);
    const longer$ =  m.cold('x|', VALUES);

    m.expect(exactly$.pipe(rateLimit({ charsPerSecond: ONE_PER_FRAME, burst: 2, scheduler: m.scheduler }))).toBeObservable('y|', VALUES);
    m.expect(longer$.pipe(rateLimit({ charsPerSecond: ONE_PER_FRAME, burst: 3, scheduler: m.scheduler })))
      .toBeObservable('u(v|)', { u: text('abc'), v: text('d') });
  }));

  it('passes an empty delta at once, even with the bucket empty', marbles((m) => {
    const source$ =  m.cold('(ye)-|', VALUES);
    const expected =        '(ye)-|';

    m.expect(source$.pipe(rateLimit({ charsPerSecond: ONE_PER_FRAME, burst: 2, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
  }));

  it('refuses a rate or a burst of zero', () => {
    expect(() => rateLimit({ charsPerSecond: 0, burst: 2 })).toThrow(RangeError);
    expect(() => rateLimit({ charsPerSecond: 10, burst: 0 })).toThrow(RangeError);
    expect(() => rateLimit({ charsPerSecond: 10, burst: 1.5 })).toThrow(RangeError);
  });
});
