import { describe, expect, it } from 'vitest';
import { RunAbort } from '../../../src/agent/RunAbort.js';

describe('RunAbort', () => {
  it('tells each listener once, and none after it left', () => {
    const abort = new RunAbort();
    const told: string[] = [];
    const left = () => told.push('left');
    abort.addEventListener('abort', () => told.push('first'));
    abort.addEventListener('abort', left);
    abort.addEventListener('abort', () => told.push('second'), { once: true });
    abort.removeEventListener('abort', left);

    abort.abort('client_disconnected');
    abort.abort('shutting_down');

    expect(told).toEqual(['first', 'second']);
    expect(abort.aborted).toBe(true);
    expect(abort.reason).toBe('client_disconnected');
  });

  it('gives a signal made before the abort the abort and its reason', () => {
    const abort = new RunAbort();
    const signal = abort.signal;
    const told: unknown[] = [];
    signal.addEventListener('abort', () => told.push(signal.reason));

    expect(signal.aborted).toBe(false);
    expect(abort.signal).toBe(signal);
    abort.abort('stop_requested');

    expect(told).toEqual(['stop_requested']);
  });

  it('gives a signal made after the abort as already aborted, with the reason', () => {
    const abort = new RunAbort();
    abort.abort('shutting_down');

    expect(abort.signal.aborted).toBe(true);
    expect(abort.signal.reason).toBe('shutting_down');
  });
});
