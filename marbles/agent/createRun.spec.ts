import { describe, expect, it } from 'vitest';
import { Cancellation } from '../../src/agent/cancellation.js';
import { createAbortableRun, createRun } from '../../src/agent/createRun.js';
import { InterruptReason } from '../../src/agent/interruptReason.js';
import type { RunAbort } from '../../src/agent/RunAbort.js';
import { EVENTS } from '../support/chatFrames.js';
import { marbles } from '../support/marbles.js';

describe('createRun', () => {
  it('is cold: each subscription starts its own run with its own signal', marbles((m) => {
    const signals: AbortSignal[] = [];
    const events$ = m.cold('-a|', EVENTS);
    const run$ = createRun(new Cancellation(), (signal) => (signals.push(signal), { events: events$ }));

    m.expect(run$).toBeObservable('-a|', EVENTS);
    m.expect(run$).toBeObservable('-a|', EVENTS);
    m.flush();
    expect(signals).toHaveLength(2);
    expect(signals[0]).not.toBe(signals[1]);
  }));

  it('interrupts with the reason named first, once', marbles((m) => {
    const interrupts: string[] = [];
    const cancellation = new Cancellation();
    const events$ = m.cold('-a-b-|', EVENTS);
    const run$ = createRun(cancellation, () => ({ events: events$, interrupt: (reason) => interrupts.push(reason) }));
    cancellation.cancelWith(InterruptReason.stopRequested);
    cancellation.cancelWith(InterruptReason.shuttingDown);

    m.expect(run$, '^--!').toBeObservable('-a-', EVENTS);
    m.flush();
    expect(interrupts).toEqual([InterruptReason.stopRequested]);
  }));

  it('does not interrupt after an error, nor abort the signal', marbles((m) => {
    const interrupts: string[] = [];
    let signal: AbortSignal | undefined;
    const events$ = m.cold('-a#', EVENTS);
    const run$ = createRun(new Cancellation(), (s) => ((signal = s), { events: events$, interrupt: (reason) => interrupts.push(reason) }));

    m.expect(run$).toBeObservable('-a#', EVENTS);
    m.flush();
    expect(interrupts).toEqual([]);
    expect(signal?.aborted).toBe(false);
  }));

  it('aborts the RunAbort a run was started with when it is unsubscribed, with the reason, and then interrupts it', marbles((m) => {
    const told: string[] = [];
    let abort: RunAbort | undefined;
    const cancellation = new Cancellation();
    cancellation.cancelWith(InterruptReason.stopRequested);
    const run$ = createAbortableRun(cancellation, (given) => {
      abort = given;
      given.addEventListener('abort', () => told.push(`aborted: ${String(given.reason)}`));
      return { events: m.cold('-a-b-|', EVENTS), interrupt: (reason) => told.push(`interrupted: ${reason}`) };
    });

    m.expect(run$, '^--!').toBeObservable('-a-', EVENTS);
    m.flush();
    expect(told).toEqual([`aborted: ${InterruptReason.stopRequested}`, `interrupted: ${InterruptReason.stopRequested}`]);
    expect(abort?.signal.reason).toBe(InterruptReason.stopRequested);
  }));
});
