import { identity } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Cancellation } from '../../src/agent/cancellation.js';
import { InterruptReason } from '../../src/agent/interruptReason.js';
import { AgentError } from '../../src/errors/AgentError.js';
import { DeadlineError, type DeadlineErrorCode } from '../../src/errors/DeadlineError.js';
import { deadline } from '../../src/operators/deadline.js';
import { text } from '../support/chatFrames.js';
import { marbles } from '../support/marbles.js';

const VALUES = {
  a: text('a'),
  b: text('b'),
  e: text(''),
  r: { type: 'reasoning', delta: 'hmm' },
  f: { type: 'finish', reason: 'stop' },
} as const;

const expired = (code: DeadlineErrorCode, limitMs: number) =>
  expect.objectContaining({ name: DeadlineError.name, message: new DeadlineError(code, limitMs).message });

describe('deadline', () => {
  it('lets a run that ends in time through untouched, and tells the cancellation nothing', marbles((m) => {
    const cancellation = new Cancellation();
    const source$ =  m.cold('-a-b-f|', VALUES);
    const sourceSubs =      '^-----!';
    const expected =        '-a-b-f|';

    m.expect(source$.pipe(deadline({ totalMs: 10, firstTokenMs: 2, cancellation, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.flush();

    expect(cancellation.reason).toBe(InterruptReason.clientDisconnected); // the default: nobody named a reason
    expect(m.scheduler.frame).toBe(6); // the 10 ms timer did not outlive the run
  }));

  it('fails a run still going after totalMs with deadline_exceeded, naming the reason first', marbles((m) => {
    const cancellation = new Cancellation();
    const source$ =  m.cold('-a-b-------|', VALUES);
    const sourceSubs =      '^----!';
    const expected =        '-a-b-#';

    m.expect(source$.pipe(deadline({ totalMs: 5, cancellation, scheduler: m.scheduler }))).toBeObservable(expected, VALUES, expired('deadline_exceeded', 5));
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.flush();

    expect(cancellation.reason).toBe(InterruptReason.deadlineExceeded);
  }));

  it('fails a run without text after firstTokenMs with first_token_timeout; reasoning is not text', marbles((m) => {
    const cancellation = new Cancellation();
    const source$ =  m.cold('-r-e---a-|', VALUES);
    const sourceSubs =      '^---!';
    const expected =        '-r-e#';

    m.expect(source$.pipe(deadline({ firstTokenMs: 4, cancellation, scheduler: m.scheduler }))).toBeObservable(expected, VALUES, expired('first_token_timeout', 4));
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.flush();

    expect(cancellation.reason).toBe(InterruptReason.deadlineExceeded);
  }));

  it('stops the first-token clock at the first text, leaving the total one running', marbles((m) => {
    const cancellation = new Cancellation();
    const source$ =  m.cold('-a---------|', VALUES);
    const expected =        '-a------#';

    m.expect(source$.pipe(deadline({ firstTokenMs: 2, totalMs: 8, cancellation, scheduler: m.scheduler }))).toBeObservable(expected, VALUES, expired('deadline_exceeded', 8));
  }));

  it('completes with the source and cancels its timers', marbles((m) => {
    const cancellation = new Cancellation();
    const source$ =  m.cold('-a|', VALUES);
    const sourceSubs =      '^-!';
    const expected =        '-a|';

    m.expect(source$.pipe(deadline({ totalMs: 50, firstTokenMs: 20, cancellation, scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.flush();

    expect(m.scheduler.frame).toBe(2);
  }));

  it('passes the source error through and cancels its timers, naming no reason', marbles((m) => {
    const cancellation = new Cancellation();
    const failure = new AgentError('the tool exploded');
    const source$ =  m.cold('-a#', VALUES, failure);
    const sourceSubs =      '^-!';
    const expected =        '-a#';

    m.expect(source$.pipe(deadline({ totalMs: 50, cancellation, scheduler: m.scheduler }))).toBeObservable(expected, VALUES, expect.objectContaining({ name: AgentError.name }));
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.flush();

    expect(m.scheduler.frame).toBe(2);
    expect(cancellation.reason).toBe(InterruptReason.clientDisconnected);
  }));

  it('unsubscribes the source at the frame it is unsubscribed, leaving no timer', marbles((m) => {
    const cancellation = new Cancellation();
    const source$ =  m.cold('-a-------|', VALUES);
    const sourceSubs =      '^--!';
    const unsub =           '^--!';
    const expected =        '-a-';

    m.expect(source$.pipe(deadline({ totalMs: 6, cancellation, scheduler: m.scheduler })), unsub).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.flush();

    expect(m.scheduler.frame).toBe(3);
    expect(cancellation.reason).toBe(InterruptReason.clientDisconnected);
  }));

  it('with totalMs of zero, fails before the first event', marbles((m) => {
    const cancellation = new Cancellation();
    const source$ =  m.cold('a|', VALUES);
    const expected =        '#';

    m.expect(source$.pipe(deadline({ totalMs: 0, cancellation, scheduler: m.scheduler }))).toBeObservable(expected, VALUES, expired('deadline_exceeded', 0));
  }));

  it('with totalMs of one, lets the events of frame 0 through', marbles((m) => {
    const cancellation = new Cancellation();
    const source$ =  m.cold('a-|', VALUES);
    const expected =        'a#';

    m.expect(source$.pipe(deadline({ totalMs: 1, cancellation, scheduler: m.scheduler }))).toBeObservable(expected, VALUES, expired('deadline_exceeded', 1));
  }));

  it('fails a run that would end exactly at totalMs: the limit wins the frame', marbles((m) => {
    const cancellation = new Cancellation();
    const source$ =  m.cold('-a-b|', VALUES);
    const expected =        '-a-b#';

    m.expect(source$.pipe(deadline({ totalMs: 4, cancellation, scheduler: m.scheduler }))).toBeObservable(expected, VALUES, expired('deadline_exceeded', 4));
  }));

  it('is the identity without limits, and refuses a negative one', () => {
    const cancellation = new Cancellation();
    expect(deadline({ cancellation })).toBe(identity);
    expect(() => deadline({ totalMs: -1, cancellation })).toThrow(RangeError);
    expect(() => deadline({ firstTokenMs: Number.NaN, cancellation })).toThrow(RangeError);
  });
});
