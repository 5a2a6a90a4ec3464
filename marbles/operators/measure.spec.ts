import { describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors/AgentError.js';
import { measure, type StreamMetrics } from '../../src/operators/measure.js';
import { text } from '../support/chatFrames.js';
import { marbles } from '../support/marbles.js';

const VALUES = {
  a: text('a'),
  b: text('é👍'),
  e: text(''),
  r: { type: 'reasoning', delta: 'hmm' },
  f: { type: 'finish', reason: 'stop' },
} as const;

describe('measure', () => {
  it('passes the stream unchanged and reports deltas, UTF-8 bytes and time to first token once, at completion', marbles((m) => {
    const reports: StreamMetrics[] = [];
    const source$ =  m.cold('-r-a-b-f|', VALUES);
    const sourceSubs =      '^-------!';
    const expected =        '-r-a-b-f|';

    m.expect(source$.pipe(measure((metrics) => reports.push(metrics), { scheduler: m.scheduler }))).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.flush();

    expect(reports).toEqual([{ deltas: 2, bytes: 7, timeToFirstTokenMs: 3, durationMs: 8, end: 'complete' }]);
  }));

  it('reports once when the stream fails', marbles((m) => {
    const reports: StreamMetrics[] = [];
    const source$ =  m.cold('-a-#', VALUES, new AgentError('the tool exploded'));
    const sourceSubs =      '^--!';
    const expected =        '-a-#';

    m.expect(source$.pipe(measure((metrics) => reports.push(metrics), { scheduler: m.scheduler })))
      .toBeObservable(expected, VALUES, expect.objectContaining({ name: AgentError.name }));
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.flush();

    expect(reports).toEqual([{ deltas: 1, bytes: 1, timeToFirstTokenMs: 1, durationMs: 3, end: 'error' }]);
  }));

  it('reports once, at the frame it is unsubscribed, and unsubscribes the source then', marbles((m) => {
    const reports: (StreamMetrics & { frame: number })[] = [];
    const source$ =  m.cold('-a-----b|', VALUES);
    const sourceSubs =      '^---!';
    const unsub =           '^---!';
    const expected =        '-a---';

    m.expect(source$.pipe(measure((metrics) => reports.push({ ...metrics, frame: m.scheduler.now() }), { scheduler: m.scheduler })), unsub)
      .toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.flush();

    expect(reports).toEqual([{ deltas: 1, bytes: 1, timeToFirstTokenMs: 1, durationMs: 4, end: 'unsubscribe', frame: 4 }]);
  }));

  it('reports zero deltas and no time to first token for a run without text; empty deltas do not count', marbles((m) => {
    const reports: StreamMetrics[] = [];
    const source$ =  m.cold('-r-e-f|', VALUES);

    m.expect(source$.pipe(measure((metrics) => reports.push(metrics), { scheduler: m.scheduler }))).toBeObservable('-r-e-f|', VALUES);
    m.flush();

    expect(reports).toEqual([{ deltas: 0, bytes: 0, timeToFirstTokenMs: null, durationMs: 6, end: 'complete' }]);
  }));

  it('measures a first token at frame 0 as zero, and each subscription on its own', marbles((m) => {
    const reports: StreamMetrics[] = [];
    const source$ =  m.cold('a|', VALUES);
    const measured$ = source$.pipe(measure((metrics) => reports.push(metrics), { scheduler: m.scheduler }));

    m.expect(measured$).toBeObservable('a|', VALUES);
    m.expect(measured$).toBeObservable('a|', VALUES);
    m.flush();

    expect(reports).toEqual([
      { deltas: 1, bytes: 1, timeToFirstTokenMs: 0, durationMs: 1, end: 'complete' },
      { deltas: 1, bytes: 1, timeToFirstTokenMs: 0, durationMs: 1, end: 'complete' },
    ]);
  }));
});
