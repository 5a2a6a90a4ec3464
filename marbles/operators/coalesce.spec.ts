import { describe, expect, it } from 'vitest';
import { coalesce } from '../../src/operators/coalesce.js';
import { text } from '../support/chatFrames.js';
import { marbles } from '../support/marbles.js';

const VALUES = {
  a: text('a'),
  b: text('b'),
  c: text('c'),
  d: text('d'),
  e: text(''),
  x: text('ab'),
  y: text('abc'),
  t: { type: 'tool_start', callId: 'call_1', name: 'search', arguments: '{}' },
} as const;

describe('coalesce', () => {
  it('merges the deltas of one window into one, sent when the window closes', marbles((m) => {
    const source$ =  m.cold('-a-b----c-----|', VALUES);
    const sourceSubs =      '^-------------!';
    const expected =        '----x------c--|';

    m.expect(source$.pipe(coalesce({ windowMs: 3, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));

  it('flushes the window before any other event, keeping the order', marbles((m) => {
    const source$ =  m.cold('-a-bt----|', VALUES);
    const expected =        '----(xt)-|';

    m.expect(source$.pipe(coalesce({ windowMs: 10, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
  }));

  it('proves its TSDoc diagram', marbles((m) => {
    const source$ =  m.cold('-a-bt----c-----|', VALUES);
    const expected =        '----(xt)----c--|';

    m.expect(source$.pipe(coalesce({ windowMs: 3, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
  }));

  it('flushes a window early once it holds maxChars characters', marbles((m) => {
    const source$ =  m.cold('-a-b-c-d--|', VALUES);
    const expected =        '-----y----(d|)';

    m.expect(source$.pipe(coalesce({ windowMs: 10, maxChars: 3, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
  }));

  it('flushes what it holds at completion', marbles((m) => {
    const source$ =  m.cold('-a-b|', VALUES);
    const sourceSubs =      '^---!';
    const expected =        '----(x|)';

    m.expect(source$.pipe(coalesce({ windowMs: 10, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));

  it('flushes what it holds before an error', marbles((m) => {
    const source$ =  m.cold('-a-b#', VALUES);
    const sourceSubs =      '^---!';
    const expected =        '----(x#)';

    m.expect(source$.pipe(coalesce({ windowMs: 10, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));

  it('unsubscribes the source at the frame it is unsubscribed while holding text, leaving no timer', marbles((m) => {
    const source$ =  m.cold('-a-b-----|', VALUES);
    const sourceSubs =      '^---!';
    const unsub =           '^---!';
    const expected =        '-----';

    m.expect(source$.pipe(coalesce({ windowMs: 5, scheduler: m.scheduler })), unsub).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.flush();

    // The window would have closed at frame 6.
    expect(m.scheduler.frame).toBe(4);
  }));

  it('with a window of zero, merges only the deltas of one frame', marbles((m) => {
    const source$ =  m.cold('-(ab)-c-|', VALUES);
    const expected =        '-x----c-|';

    m.expect(source$.pipe(coalesce({ windowMs: 0, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
  }));

  it('with a window of one, holds a delta one frame', marbles((m) => {
    const source$ =  m.cold('-a-b--|', VALUES);
    const expected =        '--a-b-|';

    m.expect(source$.pipe(coalesce({ windowMs: 1, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
  }));

  it('with maxChars of one, sends every delta at once', marbles((m) => {
    const source$ =  m.cold('-a-b-|', VALUES);
    const expected =        '-a-b-|';

    m.expect(source$.pipe(coalesce({ windowMs: 10, maxChars: 1, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
  }));

  it('flushes at exactly maxChars, not one character before', marbles((m) => {
    const source$ =  m.cold('-a-b-c-|', VALUES);
    const expected =        '---x---(c|)';

    m.expect(source$.pipe(coalesce({ windowMs: 5, maxChars: 2, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
  }));

  it('emits nothing for a window without characters', marbles((m) => {
    const source$ =  m.cold('-e-e--t|', VALUES);
    const expected =        '------t|';

    m.expect(source$.pipe(coalesce({ windowMs: 2, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
  }));

  it('refuses a negative window or a maxChars of zero', () => {
    expect(() => coalesce({ windowMs: -1 })).toThrow(RangeError);
    expect(() => coalesce({ windowMs: 10, maxChars: 0 })).toThrow(RangeError);
  });
});
