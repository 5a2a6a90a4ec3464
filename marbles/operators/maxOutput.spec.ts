import { describe, expect, it } from 'vitest';
import { Cancellation } from '../../src/agent/cancellation.js';
import { InterruptReason } from '../../src/agent/interruptReason.js';
import { AgentError } from '../../src/errors/AgentError.js';
import { maxOutput } from '../../src/operators/maxOutput.js';
import { text } from '../support/chatFrames.js';
import { marbles } from '../support/marbles.js';

const VALUES = {
  a: text('ab'),
  b: text('cd'),
  c: text('c'),
  h: text('a'),
  x: text('👍👍'),
  y: text('👍'),
  r: { type: 'reasoning', delta: 'long thoughts' },
  s: { type: 'reasoning', delta: 'long' },
  u: { type: 'usage', usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } },
  f: { type: 'finish', reason: 'stop' },
  L: { type: 'finish', reason: 'length' },
} as const;

describe('maxOutput', () => {
  it('lets an answer under the limit through untouched', marbles((m) => {
    const cancellation = new Cancellation();
    const source$ =  m.cold('-a-r-b-u-f|', VALUES);
    const sourceSubs =      '^---------!';
    const expected =        '-a-r-b-u-f|';

    m.expect(source$.pipe(maxOutput({ maxChars: 10, cancellation }))).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.flush();

    expect(cancellation.reason).toBe(InterruptReason.clientDisconnected); // the default: nobody named a reason
  }));

  it('truncates the delta that crosses the limit, finishes with length and unsubscribes the run, dropping its own finish', marbles((m) => {
    const cancellation = new Cancellation();
    const source$ =  m.cold('-a-b-f-|', VALUES);
    const sourceSubs =      '^--!';
    const expected =        '-a-(cL|)';

    m.expect(source$.pipe(maxOutput({ maxChars: 3, cancellation }))).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.flush();

    expect(cancellation.reason).toBe(InterruptReason.outputLimitReached);
  }));

  it('completes with the source under the limit', marbles((m) => {
    const cancellation = new Cancellation();
    const source$ =  m.cold('-a|', VALUES);
    const sourceSubs =      '^-!';
    const expected =        '-a|';

    m.expect(source$.pipe(maxOutput({ maxChars: 3, cancellation }))).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));

  it('passes the source error through under the limit, naming no reason', marbles((m) => {
    const cancellation = new Cancellation();
    const source$ =  m.cold('-a#', VALUES, new AgentError('the tool exploded'));
    const sourceSubs =      '^-!';
    const expected =        '-a#';

    m.expect(source$.pipe(maxOutput({ maxChars: 3, cancellation }))).toBeObservable(expected, VALUES, expect.objectContaining({ name: AgentError.name }));
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.flush();

    expect(cancellation.reason).toBe(InterruptReason.clientDisconnected);
  }));

  it('unsubscribes the source at the frame it is unsubscribed', marbles((m) => {
    const cancellation = new Cancellation();
    const source$ =  m.cold('-a---b-|', VALUES);
    const sourceSubs =      '^--!';
    const unsub =           '^--!';
    const expected =        '-a-';

    m.expect(source$.pipe(maxOutput({ maxChars: 3, cancellation })), unsub).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.flush();

    expect(m.scheduler.frame).toBe(3);
    expect(cancellation.reason).toBe(InterruptReason.clientDisconnected);
  }));

  it('with a limit of zero, finishes with length at the first text and sends no empty delta', marbles((m) => {
    const cancellation = new Cancellation();
    const source$ =  m.cold('-r-a-|', VALUES);
    const sourceSubs =      '^--!';
    const expected =        '-r-(L|)';

    m.expect(source$.pipe(maxOutput({ maxChars: 0, cancellation }))).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));

  it('with a limit of one, keeps one character, counting code points, not UTF-16 units', marbles((m) => {
    const cancellation = new Cancellation();
    const source$ =  m.cold('-x-|', VALUES);
    const expected =        '-(yL|)';

    m.expect(source$.pipe(maxOutput({ maxChars: 1, cancellation }))).toBeObservable(expected, VALUES);
  }));

  it('does not cut an answer that reaches exactly the limit, only the text after it', marbles((m) => {
    const cancellation = new Cancellation();
    const reaches$ = m.cold('-a-b-f|', VALUES);
    const exceeds$ = m.cold('-a-b-h-f|', VALUES);

    m.expect(reaches$.pipe(maxOutput({ maxChars: 4, cancellation }))).toBeObservable('-a-b-f|', VALUES);
    m.expect(exceeds$.pipe(maxOutput({ maxChars: 4, cancellation }))).toBeObservable('-a-b-(L|)', VALUES);
  }));

  it('with includeReasoning, counts reasoning and cuts it the same way', marbles((m) => {
    const cancellation = new Cancellation();
    const source$ =  m.cold('-r-a-|', VALUES);
    const sourceSubs =      '^!';
    const expected =        '-(sL|)';

    m.expect(source$.pipe(maxOutput({ maxChars: 4, cancellation, includeReasoning: true }))).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.flush();

    expect(cancellation.reason).toBe(InterruptReason.outputLimitReached);
  }));

  it('with includeReasoning, counts text and reasoning together', marbles((m) => {
    const cancellation = new Cancellation();
    const source$ =  m.cold('-a-s-b-|', VALUES);
    const expected =        '-a-s-(L|)';

    m.expect(source$.pipe(maxOutput({ maxChars: 6, cancellation, includeReasoning: true }))).toBeObservable(expected, VALUES);
  }));

  it('refuses a negative or fractional limit', () => {
    const cancellation = new Cancellation();
    expect(() => maxOutput({ maxChars: -1, cancellation })).toThrow(RangeError);
    expect(() => maxOutput({ maxChars: 1.5, cancellation })).toThrow(RangeError);
  });
});
